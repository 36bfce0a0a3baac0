// cac reads an option's value as a number whenever it looks like one, and an empty or
// blank value does: `svc serve --port "$PORT"` with PORT unset would listen on whatever
// port the system picks (0), and `--workers ""` would complain about a 0 nobody wrote.
// Only the raw arguments tell a blank value apart from a real 0.
import type { Command } from 'cac';
import { UsageError } from './usage-error.ts';

/** Throws when an option of `command` that takes a value was given a blank one. */
export function refuseBlankValues(command: Command, argv: readonly string[]): void {
  const valued = command.options.filter((option) => !option.isBoolean);
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') return; // what follows is no option
    const given = /^--([^=]+)(=(.*))?$/s.exec(arg);
    if (!given) continue;
    const option = valued.find((candidate) => candidate.rawName.split(/[\s,]+/).includes(`--${given[1]}`));
    // `--port=` with nothing after it takes the next argument as its value, as cac does.
    const value = given[3] || argv[i + 1];
    if (option && value !== undefined && value.trim() === '') throw new UsageError(`--${given[1]} needs a value, got "${value}"`);
  }
}
