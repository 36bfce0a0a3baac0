import type { CAC } from 'cac';
import { listenOptions, type ListenOptions } from '../options.ts';
import { tread } from '../tread.ts';

export function register(cli: CAC): void {
  cli
    .command('tread', 'Build, serve and rebuild on every change to routes/, weave/ or svc.json')
    .option('--host <host>', 'Address to listen on; default from svc.json')
    .option('--port <port>', 'Port; default from svc.json')
    .action(async (options: ListenOptions) => {
      await tread(process.cwd(), listenOptions(options));
      return new Promise<number>(() => {}); // served until a signal ends the process
    });
}
