// `svc serve` from inside the build: compiler/bundle/ puts this into .svc/app.mjs, so
// bin/svc.js can serve without loading tsx, the compiler or the other commands. It is
// the full CLI's own `serve` command (commands/serve.ts), registered alone; whatever it
// does not accept (a usage error, --help) is handed back, and the full CLI then parses
// the same arguments and answers with its usual message, help and exit code 2.
import { cac } from 'cac';
import { register } from '../cli/commands/serve.ts';
import { refuseMisreadValues } from '../cli/misread-values.ts';
import { UsageError } from '../cli/usage-error.ts';

/** The exit code once serving ends, or `undefined`: run the full CLI instead. */
export async function serveMain(argv: readonly string[]): Promise<number | undefined> {
  const cli = cac('svc');
  register(cli);
  try {
    cli.parse(['node', 'svc', ...argv], { run: false });
    if (cli.matchedCommandName !== 'serve' || cli.options.help || cli.options.version) return undefined;
    refuseMisreadValues(cli.matchedCommand!, argv);
    const code: unknown = await cli.runMatchedCommand();
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if (e instanceof UsageError || (e as Error).name === 'CACError') return undefined;
    throw e;
  }
}
