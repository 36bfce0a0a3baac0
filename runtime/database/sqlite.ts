// The embedded default: a better-sqlite3 file, its folder created on demand.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export async function openSqlite(file: string): Promise<BetterSqlite3.Database> {
  await mkdir(dirname(file), { recursive: true });
  const database = new BetterSqlite3(file);
  // WAL lets the server keep reading while `cobble run` (another process) writes.
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  // From here on a locked database is waited for by sqlite-busy.ts, off the event loop.
  database.pragma('busy_timeout = 0');
  return database;
}
