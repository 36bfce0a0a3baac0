// The `svc` program. Each command lives in its own file under commands/ and registers
// itself on the cac instance; main only wires them and maps failures to exit codes.
// A command's file, with its code and npm packages, is imported only when that command
// runs (or for the full help): `svc build` never loads Kysely, `svc cobble` never ts-morph.
import { cac, type CAC } from 'cac';
import { frameworkVersion } from '../version.ts';
import { refuseOptionsNotTaken } from './action-options.ts';
import { refuseMisreadValues } from './misread-values.ts';
import { UsageError } from './usage-error.ts';

type Command = () => Promise<{ register(cli: CAC): void }>;

const commands: Record<string, Command> = {
  build: () => import('./commands/build.ts'),
  serve: () => import('./commands/serve.ts'),
  tread: () => import('./commands/tread.ts'),
  cobble: () => import('./commands/cobble.ts'),
  route: () => import('./commands/route.ts'),
  'cache:clear': () => import('./commands/cache.ts'),
};

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  // `svc help` and `svc help build`, as npm and artisan take them: the same as `--help`.
  if (argv[0] === 'help' && argv.length <= 2) {
    const [, command] = argv;
    return main(command === undefined || Object.hasOwn(commands, command) ? [...argv.slice(1), '--help'] : [command], cwd);
  }
  const cli = cac('svc');
  // A command's own help and usage errors name that command alone; anything else needs them all.
  const wanted = Object.hasOwn(commands, argv[0]) ? [commands[argv[0]]] : Object.values(commands);
  for (const command of await Promise.all(wanted.map((load) => load()))) command.register(cli);
  cli.help();
  cli.version(frameworkVersion());
  process.chdir(cwd);
  try {
    cli.parse(['node', 'svc', ...argv], { run: false });
    if (!cli.matchedCommand) {
      if (cli.options.help || cli.options.version) return 0;
      throw new UsageError(argv.length ? `Unknown command: ${argv[0]}` : 'No command given.');
    }
    refuseMisreadValues(cli.matchedCommand, argv);
    refuseOptionsNotTaken(cli.matchedCommand, cli.args, cli.options);
    const code = await cli.runMatchedCommand();
    return typeof code === 'number' ? code : 0;
  } catch (e) {
    if (e instanceof UsageError || (e as Error).name === 'CACError') {
      console.error(`svc: ${(e as Error).message}\n`);
      // The help goes with the message, to stderr (cac prints it with console.info).
      const info = console.info;
      console.info = console.error;
      try {
        cli.outputHelp();
      } finally {
        console.info = info;
      }
      return 2;
    }
    throw e;
  }
}
