/** An expected failure of a cobble command (bad tracker, failing migration…): its message is printed, and the command exits with `exitCode`. */
export class CobbleError extends Error {
  override name = 'CobbleError';

  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
