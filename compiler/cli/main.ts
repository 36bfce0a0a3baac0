// The `svc` program. Each command lives in its own file under commands/ and registers
// itself on the cac instance; main only wires them and maps failures to exit codes.
import { cac, type CAC } from 'cac';
import { frameworkVersion } from '../version.ts';
import { UsageError } from './usage-error.ts';
import { register as build } from './commands/build.ts';
import { register as serve } from './commands/serve.ts';
import { register as tread } from './commands/tread.ts';
import { register as cobble } from './commands/cobble.ts';
import { register as route } from './commands/route.ts';
import { register as cache } from './commands/cache.ts';

const commands: Array<(cli: CAC) => void> = [build, serve, tread, cobble, route, cache];

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  const cli = cac('svc');
  for (const register of commands) register(cli);
  cli.help();
  cli.version(frameworkVersion());
  process.chdir(cwd);
  try {
    cli.parse(['node', 'svc', ...argv], { run: false });
    if (!cli.matchedCommand) {
      if (cli.options.help || cli.options.version) return 0;
      throw new UsageError(argv.length ? `Unknown command: ${argv[0]}` : 'No command given.');
    }
    const code = await cli.runMatchedCommand();
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if (e instanceof UsageError || (e as Error).name === 'CACError') {
      console.error(`svc: ${(e as Error).message}\n`);
      cli.outputHelp();
      return 2;
    }
    throw e;
  }
}
