// The embedded default: a SQLite file (sqlite-library.ts), its folder created on demand.
import { mkdir } from 'node:fs/promises';
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
  return database;
}
