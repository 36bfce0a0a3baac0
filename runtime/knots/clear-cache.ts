// `svc cache:clear`: empties shoebox/cache/ (the folder itself stays) and tells what went.
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { shoeboxPath } from '../shoebox/paths.ts';

export interface Cleared {
  folder: string;
  /** Files removed, those inside subfolders included. */
  files: number;
  bytes: number;
}

export async function clearCache(root: string): Promise<Cleared> {
  const folder = shoeboxPath(root, 'cache');
  const cleared: Cleared = { folder, files: 0, bytes: 0 };
  await removeContents(folder, cleared);
  return cleared;
}

async function removeContents(folder: string, cleared: Cleared): Promise<void> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // nothing was ever cached
    throw e;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      await removeContents(path, cleared);
    } else {
      // A running server may replace or remove a file meanwhile: count what was there. A
      // link counts as itself: it is what is removed, not what it points to.
      const size = await lstat(path).then((s) => s.size, () => null);
      if (size === null) continue;
      cleared.files++;
      cleared.bytes += size;
    }
    await rm(path, { recursive: true, force: true });
  }
}
