// A migration awaiting a promise that nothing can settle any more (a callback API
// wrapped in a promise whose callback never comes) leaves the process with no work:
// Node would end it there, silently, exit code 13 ("unsettled top-level await"), with
// the migration neither reported nor recorded. 'beforeExit' is the moment to say so; the
// rejection gives the process work again, so the transaction is rolled back and the
// failure reported like any other.
import { described } from '../../shoebox/log.ts';

/** `work`, or a rejection naming `what` when the process runs out of things to wait for first. */
export function unlessNeverSettling<T>(work: Promise<T>, what: string): Promise<T> {
  let stuck!: () => void;
  const idle = new Promise<never>((_, reject) => {
    stuck = () => reject(new Error(`${what} never finished: it awaits a promise that nothing is left to settle (a callback that is never called?)`));
  });
  process.once('beforeExit', stuck);
  return Promise.race([work, idle]).finally(() => process.off('beforeExit', stuck));
}

let stepsRunning = 0;

/** Whether an up() or down() is running: a failure aside belongs to it (unlessFailingAside). */
export const insideStep = (): boolean => stepsRunning > 0;

/**
 * `work`, or a rejection when code it started and did not await (a timer, a promise
 * nobody awaits) fails while it runs: Node would end the process there with a stack
 * trace. Failing the migration instead rolls its transaction back and names it.
 */
export function unlessFailingAside<T>(work: Promise<T>, what: string): Promise<T> {
  let failed!: (thrown: unknown) => void;
  const aside = new Promise<never>((_, reject) => {
    failed = (thrown) => reject(new Error(`code that ${what} started and did not await failed: ${described(thrown)}`));
  });
  process.on('uncaughtException', failed).on('unhandledRejection', failed);
  stepsRunning++;
  return Promise.race([work, aside]).finally(() => {
    stepsRunning--;
    process.off('uncaughtException', failed).off('unhandledRejection', failed);
  });
}
