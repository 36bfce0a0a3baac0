// Route files are every `routes/*.ts`, in code-unit order: the order the compiler numbers
// routes in and the runtime replays them in, so it must not depend on locale or disk.
// A project without any is legal (it serves the built-in endpoints) but worth a warning.
// A `routes/*.ts` that is no readable file (a link to nothing, a folder) is an error, not
// skipped: its routes would be missing from the build without a word.
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { error, warning, type Diagnostic } from '../diagnostics.ts';
import { compareText } from '../text-order.ts';

const AT_FOLDER = { file: 'routes', line: 1, col: 1 };

export async function discover(root: string): Promise<{ routeFiles: string[]; diagnostics: Diagnostic[] }> {
  const folder = await stat(join(root, 'routes')).then(
    (found) => (found.isDirectory() ? 'folder' : 'other'),
    () => 'missing',
  );
  if (folder === 'other') return { routeFiles: [], diagnostics: [error('SVC012', 'routes is not a folder; route files are routes/*.ts', AT_FOLDER)] };
  const names = folder === 'folder' ? (await readdir(join(root, 'routes'))).filter(isRouteFileName).sort(compareText) : [];
  const routeFiles: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const name of names) {
    const file = `routes/${name}`;
    const problem = await notAFile(join(root, file));
    if (problem === null) routeFiles.push(file);
    else if (problem !== 'gone') diagnostics.push(error('SVC012', `${file} ${problem}; a route file must be a file: restore it, or rename or remove it`, { file, line: 1, col: 1 }));
  }
  if (routeFiles.length === 0 && diagnostics.length === 0) {
    diagnostics.push(warning('SVC012', 'no route files: only the built-in endpoints are served; add routes/*.ts files that default-export a function taking the router', AT_FOLDER));
  }
  return { routeFiles, diagnostics };
}

/** `*.ts`, but not a declaration file, nor a hidden one (an editor's swap or lock file). */
const isRouteFileName = (name: string): boolean => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.startsWith('.');

/**
 * Why `path` (links followed) is no file to read; `null` when it is one, `'gone'` when it
 * was deleted since the folder was listed (an editor saving it anew: the next build has it).
 */
async function notAFile(path: string): Promise<string | null> {
  try {
    const found = await stat(path);
    if (found.isFile()) return null;
    return found.isDirectory() ? 'is a folder' : 'is not a regular file';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return (await lstat(path).then(() => true, () => false)) ? 'is a link to nothing' : 'gone';
    if (code === 'ELOOP') return 'is a link that leads back to itself';
    return `cannot be read (${code})`;
  }
}
