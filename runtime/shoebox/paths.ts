// Where the writable runtime folder lives (SPEC §7). Folders are created on first use,
// so a fresh clone, or a folder someone deleted, just works.
// The reference makes `import.meta.svcRoot` known to any program that reaches this file
// (an application's own `tsc --noEmit`), not only to this repository's.
/// <reference path="../import-meta.d.ts" />
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ShoeboxFolder = 'cache' | 'logs' | 'metrics' | 'migrations' | 'outsole' | 'views';

export function shoeboxPath(root: string, folder: ShoeboxFolder, ...rest: string[]): string {
  return join(root, 'shoebox', folder, ...rest);
}

export const logFile = (root: string): string => shoeboxPath(root, 'logs', 'svc.log');

/** Creates `folder` (and its parents) if it is missing; returns its path. */
export async function ensureFolder(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  return folder;
}

/**
 * The svc package's own folder, for the files it ships (default views). The runtime is
 * bundled into the project's `.svc/app.mjs`, where `svc build` records it as
 * `import.meta.svcRoot` (relative to the project); unbundled, look upwards from this file, then resolve `svc`.
 */
export function frameworkRoot(projectRoot: string): string | null {
  if (import.meta.svcRoot !== undefined) return resolve(projectRoot, import.meta.svcRoot);
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (isSvcPackage(dir)) return dir;
    if (dirname(dir) === dir) break;
  }
  try {
    const entry = createRequire(join(projectRoot, 'package.json')).resolve('svc');
    for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) if (isSvcPackage(dir)) return dir;
  } catch {
    // not installed as a package: the caller falls back to its built-in default
  }
  return null;
}

function isSvcPackage(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'svc';
  } catch {
    return false;
  }
}
