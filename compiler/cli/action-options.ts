// cac knows an option per command, but `svc route` and `svc cobble` are several actions
// each (`route list`, `route docs`): an option only one of them reads would be silently
// ignored by the others. Options are declared here with the actions that take them, and
// main refuses the rest before any command runs (SPEC §10: a usage error, exit 2).
import type { Command } from 'cac';
import { UsageError } from './usage-error.ts';

type Option = Command['options'][number];

const takenBy = new WeakMap<Option, readonly string[]>();

/** `--json` of `route list` only: described as `list: …`, refused by `route docs`. */
export function actionOption(command: Command, rawName: string, description: string, actions: readonly string[]): Command {
  command.option(rawName, `${actions.join(', ')}: ${description}`);
  takenBy.set(command.options.at(-1)!, actions);
  return command;
}

/**
 * Throws for an option given to an action that does not take it, and for arguments after
 * `--`, which no svc command reads. `args` are the command's positional arguments, the
 * action first.
 */
export function refuseOptionsNotTaken(command: Command, args: readonly string[], options: Record<string, unknown>): void {
  const called = [command.name, args[0]].filter(Boolean).join(' ');
  const afterDashes = (options['--'] ?? []) as string[];
  if (afterDashes.length) throw new UsageError(`${called} takes no arguments after --, got ${afterDashes.map((a) => `"${a}"`).join(' ')}`);
  for (const option of command.options) {
    const actions = takenBy.get(option);
    if (!actions || actions.includes(args[0]!) || option.names.every((name) => options[name] === undefined)) continue;
    const name = option.rawName.split(/[\s,]+/)[0];
    throw new UsageError(`${called} does not take ${name} (an option of ${actions.map((action) => `svc ${command.name} ${action}`).join(', ')})`);
  }
}
