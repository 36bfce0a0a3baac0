// A lock on a file among the processes that serve one project (two `svc serve` on one
// checkout, the instances of PM2's cluster mode), held while one of them reads, adds to
// and rewrites it. The lock is a directory beside the file: creating one is atomic, and
// fails for all but one process. A lock whose holder died mid-save (SIGKILL) is taken
// over once it is older than any save takes (two processes taking over the same stale
// lock at once may both hold it: a crash, then a coincidence of milliseconds).
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import { lstat, mkdir, rm } from 'node:fs/promises';

/** A save takes milliseconds; a lock this old was left by a process that is gone. */
const STALE_MS = 10_000;
const RETRY_MS = 5;

/** `released`: the lock went between the two calls: try again at once. */
type Attempt = 'taken' | 'held' | 'stale' | 'released';

export class FileLock {
  private readonly lock: string;
  /** This process holds the lock: an asynchronous `run` is under way. */
  private holding = false;

  constructor(file: string) {
    this.lock = `${file}.lock`;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    for (;;) {
      const attempt = await tryLock(this.lock);
      if (attempt === 'taken') break;
      if (attempt === 'stale') await rm(this.lock, { recursive: true, force: true });
      else if (attempt === 'held') await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    this.holding = true;
    try {
      return await work();
    } finally {
      this.holding = false;
      await rm(this.lock, { recursive: true, force: true });
    }
  }

  /**
   * `run`, synchronously, for a process that exits now. A `run` of its own under way holds
   * the lock and will never finish: the lock is this one's to use, not to wait for.
   */
  runNow<T>(work: () => T): T {
    while (!this.holding) {
      const attempt = tryLockNow(this.lock);
      if (attempt === 'taken') break;
      if (attempt === 'stale') rmSync(this.lock, { recursive: true, force: true });
      else if (attempt === 'held') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
    }
    try {
      return work();
    } finally {
      rmSync(this.lock, { recursive: true, force: true });
    }
  }
}

async function tryLock(lock: string): Promise<Attempt> {
  try {
    await mkdir(lock);
    return 'taken';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // The lock itself, not what a link there points to: a dangling link is no lock that was released.
  return lstat(lock).then(ageOf, gone);
}

function tryLockNow(lock: string): Attempt {
  try {
    mkdirSync(lock);
    return 'taken';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  try {
    return ageOf(lstatSync(lock));
  } catch (e) {
    return gone(e);
  }
}

/** A lock dated ahead of now by more than a save takes (a clock set back since) was not taken by a save under way either. */
const ageOf = (lock: { mtimeMs: number }): Attempt => (Math.abs(Date.now() - lock.mtimeMs) > STALE_MS ? 'stale' : 'held');

function gone(e: unknown): Attempt {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  return 'released';
}
