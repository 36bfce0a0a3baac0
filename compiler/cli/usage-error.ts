/** A mistake in how the command was called: printed with the help, exit code 2. */
export class UsageError extends Error {}
