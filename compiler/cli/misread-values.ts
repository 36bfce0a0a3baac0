// cac reads an option's value as a number whenever JavaScript can: an empty or blank value
// as 0, `0x10` as 16, `1e3` as 1000, ` 80` as 80. `svc serve --port "$PORT"` with PORT
// unset would listen on whatever port the system picks, and `--port 0x10` on port 16,
// with no word said. Only the raw arguments tell what was written. A flag given a value
// (`--json=1`) cac reports as "Unused args: `1`", which does not say which option is wrong.
import type { Command } from 'cac';
import { UsageError } from './usage-error.ts';

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Throws when an option of `command` that takes a value was given one cac would read as
 * something else, or a flag was given a value (`--json=false` stays cac's: the flag off).
 */
export function refuseMisreadValues(command: Command, argv: readonly string[]): void {
  const named = (name: string) => command.options.find((candidate) => candidate.rawName.split(/[\s,]+/).includes(`--${name}`));
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') return; // what follows is no option
    const given = /^--([^=]+)(=(.*))?$/s.exec(arg);
    if (!given) continue;
    const option = named(given[1]!);
    if (option?.isBoolean) {
      if (given[2] !== undefined && given[3] !== 'true' && given[3] !== 'false') throw new UsageError(`--${given[1]} takes no value, got "${given[3]}": write --${given[1]} alone`);
      continue;
    }
    // `--port=` with nothing after it takes the next argument as its value, as cac does.
    const value = given[3] || argv[i + 1];
    if (!option || value === undefined) continue;
    if (value.trim() === '') throw new UsageError(`--${given[1]} needs a value, got "${value}"`);
    if (Number.isFinite(Number(value)) && !DECIMAL.test(value)) {
      throw new UsageError(`--${given[1]} got "${value}": write a number in decimal digits only`);
    }
  }
}
