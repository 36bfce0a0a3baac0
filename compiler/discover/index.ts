// Route files are every `routes/*.ts`, in code-unit order: the order the compiler numbers
// routes in and the runtime replays them in, so it must not depend on locale or disk.
// A project without any is legal (it serves the built-in endpoints) but worth a warning.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import fg from 'fast-glob';
import { error, warning, type Diagnostic } from '../diagnostics.ts';
import { compareText } from '../text-order.ts';

const AT_FOLDER = { file: 'routes', line: 1, col: 1 };

export async function discover(root: string): Promise<{ routeFiles: string[]; diagnostics: Diagnostic[] }> {
  const folder = await stat(join(root, 'routes')).then(
    (found) => (found.isDirectory() ? 'folder' : 'other'),
    () => 'missing',
  );
  if (folder === 'other') return { routeFiles: [], diagnostics: [error('SVC012', 'routes is not a folder; route files are routes/*.ts', AT_FOLDER)] };
  const found = folder === 'folder' ? await fg('routes/*.ts', { cwd: root, ignore: ['routes/*.d.ts'], onlyFiles: true }) : [];
  const routeFiles = found.sort(compareText);
  const diagnostics =
    routeFiles.length === 0
      ? [warning('SVC012', 'no route files: only the built-in endpoints are served; add routes/*.ts files that default-export a function taking the router', AT_FOLDER)]
      : [];
  return { routeFiles, diagnostics };
}
