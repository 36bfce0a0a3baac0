// One `cobble run` or `cobble rollback` at a time per project. The lock is a write
// transaction (BEGIN IMMEDIATE) on a small SQLite file of its own,
// `shoebox/migrations/.lock`. SQLite holds it with an operating-system file lock, which
// the kernel drops the moment the holder exits, SIGKILL included: there is no stale lock
// to detect and no pid to trust. The file stays in place (deleting it while another
// process waits on it would let a third one lock a new file), and it is separate from
// the application's database so the schema is left untouched.
import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { shoeboxPath } from '../../shoebox/paths.ts';
import { connectSqlite, isBusy, SqliteLibraryError } from '../sqlite-library.ts';
import { CobbleError } from './cobble-error.ts';
import { MIGRATIONS_FOLDER } from './files.ts';

export const LOCK_FILE = `${MIGRATIONS_FOLDER}/.lock`;
const RETRY_MS = 50;

export interface LockOptions {
  /** How long to wait for another run to finish before giving up. */
  waitMs: number;
  /** Called once when the lock is busy, before waiting. */
  onWait: () => void;
}

/** Waits for the lock and returns its release function. */
export async function acquireMigrationLock(root: string, options: LockOptions): Promise<() => void> {
  await mkdir(shoeboxPath(root, 'migrations'), { recursive: true });
  // No busy timeout: a busy lock is retried here, asynchronously, so that waiting never
  // blocks the event loop (the holder may be in this same process).
  const lock = openLock(root);
  const deadline = Date.now() + options.waitMs;
  for (let waited = false; ; waited = true) {
    try {
      lock.exec('BEGIN IMMEDIATE');
      return () => lock.close(); // closing ends the transaction and drops the file lock
    } catch (e) {
      if (!isBusy(e)) {
        lock.close();
        throw refused(e);
      }
    }
    if (Date.now() >= deadline) {
      lock.close();
      throw new CobbleError(`Another cobble run or rollback still holds ${LOCK_FILE} after ${options.waitMs / 1000} s; try again when it has finished.`);
    }
    if (!waited) options.onWait();
    await sleep(RETRY_MS);
  }
}

function openLock(root: string): ReturnType<typeof connectSqlite> {
  try {
    return connectSqlite(shoeboxPath(root, 'migrations', '.lock'));
  } catch (e) {
    throw refused(e);
  }
}

/**
 * A lock file this user may not create or write (a read-only deployment, another owner),
 * or one that is no SQLite file (damaged, or written by hand): said in one line.
 */
function refused(e: unknown): CobbleError {
  if (e instanceof SqliteLibraryError) return new CobbleError(e.message);
  const { message } = e as Error;
  const remedy = /not a database/.test(message)
    ? "It holds no lock of cobble's: delete it (no cobble run or rollback is running) and try again."
    : 'svc cobble run and rollback write in shoebox/migrations/; run them as a user who may.';
  return new CobbleError(`cannot take the migration lock ${LOCK_FILE}: ${message}. ${remedy}`);
}
