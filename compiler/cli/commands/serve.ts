import type { CAC } from 'cac';
import { loadBuild, MissingBuildError } from '../load-build.ts';
import { listenOptions, serverUrl, type ListenOptions } from '../options.ts';

export function register(cli: CAC): void {
  cli
    .command('serve', 'Serve the existing .svc/ build (production: no watching)')
    .option('--host <host>', 'Address to listen on (`::` for IPv6 and IPv4); default from svc.json')
    .option('--port <port>', 'Port; default from svc.json')
    .action(async (options: ListenOptions) => {
      const listen = listenOptions(options);
      const root = process.cwd();
      try {
        const built = await loadBuild(root);
        const server = await built.start({ root, ...listen });
        console.log(`svc: serving ${serverUrl(server)}`);
        return new Promise<number>(() => {}); // served until a signal ends the process
      } catch (e) {
        if (!(e instanceof MissingBuildError)) throw e;
        console.error(`svc: ${e.message}`);
        return 1;
      }
    });
}
