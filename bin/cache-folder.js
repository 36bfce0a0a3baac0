// The CLI's caches live in node_modules/.cache/svc/ under the framework: the CLI bundle
// (cli-bundle.js) at the top, V8's code cache for Node 20 (compile-cache.js) in v8/.
// Several svc processes may read and write them at once.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Ends in a separator, as compiler/framework.ts's `frameworkRoot` does.
export const root = fileURLToPath(new URL('..', import.meta.url));
export const cacheFolder = join(root, 'node_modules', '.cache', 'svc');
export const COMPILE_CACHE = 'v8';

/** Writes under a temporary name, then renames: a process reading `file` sees the old or the new contents, never part of them. */
export function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}
