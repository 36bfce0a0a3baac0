// A migration awaiting a promise that nothing can settle any more (a callback API
// wrapped in a promise whose callback never comes) leaves the process with no work:
// Node would end it there, silently, exit code 13 ("unsettled top-level await"), with
// the migration neither reported nor recorded. 'beforeExit' is the moment to say so; the
// rejection gives the process work again, so the transaction is rolled back and the
// failure reported like any other.

/** `work`, or a rejection naming `what` when the process runs out of things to wait for first. */
export function unlessNeverSettling<T>(work: Promise<T>, what: string): Promise<T> {
  let stuck!: () => void;
  const idle = new Promise<never>((_, reject) => {
    stuck = () => reject(new Error(`${what} never finished: it awaits a promise that nothing is left to settle (a callback that is never called?)`));
  });
  process.once('beforeExit', stuck);
  return Promise.race([work, idle]).finally(() => process.off('beforeExit', stuck));
}
