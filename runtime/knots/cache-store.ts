// shoebox/cache/ as a key → entry store. File names are the sha256 of the key; writes go
// to a temporary file renamed into place, so a reader sees the old entry or the new one,
// never half of one. An entry file's modification time is its expiry, so a sweep finds
// what to remove from the folder's listing, whichever knot wrote it and with what TTL.
import { createHash } from 'node:crypto';
import { readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureFolder } from '../shoebox/paths.ts';
import { readRegularFile } from '../shoebox/regular-file.ts';
import { writeWhole } from '../shoebox/write-whole.ts';
import { decodeEntry, encodeEntry, type CachedResponse } from './cache-entry.ts';

/** Entry files end in this; anything else in the folder is a temporary file or not ours. */
const ENTRY_SUFFIX = '.entry';

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
      // A FIFO in its place too: it used to be waited on for a writer, for ever.
      bytes = await readRegularFile(this.fileFor(key));
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
      await writeWhole(temporary, bytes);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      await ensureFolder(this.folder); // emptied or removed while serving
      await writeWhole(temporary, bytes);
    }
    try {
      await utimes(temporary, entry.storedAt / 1000, entry.expiresAt / 1000);
      await rename(temporary, file);
    } catch (e) {
      // `svc cache:clear` took the temporary file away meanwhile: the entry is cleared as asked.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      await unlink(temporary).catch(() => {});
      throw e;
    }
  }

  /**
   * Removes the entries expired at `now`, then, past `maxEntries`, those that expire
   * soonest. Returns how many it removed. Another process may sweep or write meanwhile:
   * a file gone already is skipped.
   */
  async sweep(now: number, maxEntries: number): Promise<number> {
    const names = (await readdir(this.folder)).filter((name) => name.endsWith(ENTRY_SUFFIX));
    const entries = await Promise.all(
      names.map(async (name) => {
        const file = join(this.folder, name);
        const expires = await stat(file).then((info) => info.mtimeMs, () => null);
        return { file, expires };
      }),
    );
    const live = entries.filter((entry): entry is { file: string; expires: number } => entry.expires !== null);
    live.sort((a, b) => a.expires - b.expires);
    const expired = live.findIndex((entry) => entry.expires > now);
    const removed = live.slice(0, Math.max(expired === -1 ? live.length : expired, live.length - maxEntries));
    await Promise.all(removed.map((entry) => unlink(entry.file).catch(() => {})));
    return removed.length;
  }
}
