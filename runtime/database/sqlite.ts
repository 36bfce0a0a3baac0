// The embedded default: a SQLite file (sqlite-library.ts), its folder created on demand.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BUSY_WAIT_MS } from './sqlite-busy.ts';
import { connectSqlite, type SqliteConnection } from './sqlite-library.ts';

export async function openSqlite(file: string): Promise<SqliteConnection> {
  await mkdir(dirname(file), { recursive: true });
  const database = connectSqlite(file, { busyTimeoutMs: BUSY_WAIT_MS });
  // WAL lets the server keep reading while `cobble run` (another process) writes.
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA foreign_keys = ON');
  // From here on a locked database is waited for by sqlite-busy.ts, off the event loop.
  database.exec('PRAGMA busy_timeout = 0');
  const { dev, ino } = await stat(file);
  held.set(file, { dev, ino });
  return database;
}

/** The file each open connection holds, by path: one deleted or replaced since is told by its inode. */
const held = new Map<string, { dev: number; ino: number }>();

/**
 * Whether the file at `file` is no longer the one the connection opened (deleted, or
 * replaced by `mv` of a backup): the connection would go on reading and writing the old
 * one, which nothing else sees. False when no connection is open.
 */
export async function sqliteFileSwapped(file: string): Promise<boolean> {
  const opened = held.get(file);
  if (opened === undefined) return false;
  const now = await stat(file).catch(() => null);
  return now === null || now.ino !== opened.ino || now.dev !== opened.dev;
}

/** The connection to `file` is closed: what it held is forgotten. */
export const sqliteClosed = (file: string): boolean => held.delete(file);

/**
 * Why a database file not created yet could not be (its folder, or the nearest one that
 * exists, not writable; a file where a folder belongs), or null.
 */
export async function sqliteCreationProblem(file: string): Promise<string | null> {
  let folder = dirname(file);
  for (;;) {
    const found = await stat(folder).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : e));
    if (found instanceof Error) return `${folder} cannot be looked at (${(found as NodeJS.ErrnoException).code})`;
    if (found !== null) {
      if (!found.isDirectory()) return `${folder} is a file, where the database's folder belongs`;
      return access(folder, constants.W_OK).then(() => null, () => `the database cannot be created: ${folder} is not writable`);
    }
    const parent = dirname(folder);
    if (parent === folder) return null;
    folder = parent;
  }
}
