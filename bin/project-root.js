// `svc` run inside a project's own folders (routes/, weave/, shoebox/, .svc/) works on that
// project, as npm and git find theirs from a subfolder; otherwise building in a route
// folder would make a second, empty project there (routes/.svc/, routes/shoebox/).
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const PROJECT_FOLDERS = new Set(['routes', 'weave', 'shoebox', '.svc']);

const isProject = (dir) => existsSync(join(dir, 'routes')) || existsSync(join(dir, 'svc.json'));

/** The project `cwd` belongs to: itself when it is one, else the nearest project whose folder holds it. */
export function projectRoot(cwd) {
  if (isProject(cwd)) return cwd;
  for (let dir = cwd; dirname(dir) !== dir; dir = dirname(dir)) {
    if (PROJECT_FOLDERS.has(basename(dir)) && isProject(dirname(dir))) return dirname(dir);
  }
  return cwd;
}
