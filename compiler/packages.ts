// Where Node finds an npm package from a given file: in a `node_modules` folder on the way
// up. The bundle asks it of the project root (which of svc's own dependencies a project
// reaches), the analysis of each application file (which imports would fail at run time).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export function installedPackages(fromFile: string): (name: string) => boolean {
  const folders = createRequire(fromFile).resolve.paths('') ?? [];
  return (name) => folders.some((folder) => existsSync(join(folder, name)));
}
