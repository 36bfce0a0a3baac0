// shoebox/cache/ as a key → entry store. File names are the sha256 of the key; writes go
// to a temporary file renamed into place, so a reader sees the old entry or the new one,
// never half of one.
import { createHash } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolder } from '../shoebox/paths.ts';
import { decodeEntry, encodeEntry, type CachedResponse } from './cache-entry.ts';

/** Entry files end in this; anything else in the folder is a temporary file or not ours. */
export const ENTRY_SUFFIX = '.entry';

let temporaries = 0;

export class CacheStore {
  constructor(readonly folder: string) {}

  fileFor(key: string): string {
    return join(this.folder, `${createHash('sha256').update(key).digest('hex')}${ENTRY_SUFFIX}`);
  }

  /** The entry for `key`, or null when there is none or it cannot be read or is damaged. */
  async read(key: string): Promise<CachedResponse | null> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.fileFor(key));
    } catch {
      return null;
    }
    return decodeEntry(bytes, key);
  }

  /** Replaces the entry for `entry.key` atomically. */
  async write(entry: CachedResponse): Promise<void> {
    const file = this.fileFor(entry.key);
    const temporary = `${file}.${process.pid}-${++temporaries}.tmp`;
    const bytes = encodeEntry(entry);
    try {
      await writeFile(temporary, bytes);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await ensureFolder(this.folder); // emptied or removed while serving
      await writeFile(temporary, bytes);
    }
    try {
      await rename(temporary, file);
    } catch (e) {
      // `svc cache:clear` took the temporary file away meanwhile: the entry is cleared as asked.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await unlink(temporary).catch(() => {});
      throw e;
    }
  }
}
