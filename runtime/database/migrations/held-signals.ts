// A migration's transaction commits before the tracker records it, and the tracker is
// synced to disk, which can take tens of milliseconds on a busy disk. A Ctrl-C (or a
// SIGTERM) in between would leave the database changed and the tracker unaware of it:
// the next run would run the migration again and fail on a table that already exists.
// While a record is written such a signal is held back, and the run stops once the
// record is on disk. Outside that window the signals keep Node's default, so a
// migration stuck in a long statement still stops at once, uncommitted. Not SIGHUP: a
// listener, once removed, leaves it fatal, and `nohup svc cobble run` relies on its
// being ignored.
import { constants } from 'node:os';
import { CobbleError } from './cobble-error.ts';

const STOPPING: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Runs `record`; returns the first stopping signal that came meanwhile, or null. */
export async function holdingSignals(record: () => Promise<void>): Promise<NodeJS.Signals | null> {
  let received: NodeJS.Signals | null = null;
  const hold = (signal: NodeJS.Signals): void => void (received ??= signal);
  for (const signal of STOPPING) process.on(signal, hold);
  try {
    await record();
  } finally {
    for (const signal of STOPPING) process.off(signal, hold);
  }
  return received;
}

/** The failure that ends the command after a held signal, with the shell's exit code for it (130 for SIGINT). */
export const stoppedBy = (signal: NodeJS.Signals, what: string): CobbleError =>
  new CobbleError(`stopped by ${signal} ${what}.`, 128 + constants.signals[signal]);
