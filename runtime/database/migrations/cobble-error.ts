/** An expected failure of a cobble command (bad tracker, failing migration…): its message is printed, exit code 1. */
export class CobbleError extends Error {
  override name = 'CobbleError';
}
