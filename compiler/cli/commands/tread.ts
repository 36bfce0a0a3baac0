import type { CAC } from 'cac';
import { EXPECTED_FAILURES } from '../expected-failures.ts';
import { listenOptions, type ListenOptions } from '../options.ts';

export function register(cli: CAC): void {
  cli
    .command('tread', 'Build, serve and rebuild on every change to routes/, weave/, svc.json, tsconfig.json or a file they import')
    .option('--host <host>', 'Address to listen on; default from svc.json')
    .option('--port <port>', 'Port; default from svc.json')
    .action(async (options: ListenOptions) => {
      const listen = listenOptions(options);
      const { tread } = await import('../tread.ts'); // the compiler loads only when needed
      try {
        await tread(process.cwd(), listen);
      } catch (e) {
        if (!EXPECTED_FAILURES.has((e as Error).name)) throw e;
        console.error(`svc: ${(e as Error).message}`);
        return 1;
      }
      return new Promise<number>(() => {}); // served until a signal ends the process
    });
}
