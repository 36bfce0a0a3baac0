import type { CAC } from 'cac';
import { DEFAULT_CONFIG } from '../../../runtime/config.ts';
import { listen } from '../../../runtime/server/boot.ts';
import { drain, onStopSignal } from '../../../runtime/server/shutdown.ts';
import { loadBuild, MissingBuildError } from '../load-build.ts';
import { listenOptions, serverUrl, type ListenOptions } from '../options.ts';

export function register(cli: CAC): void {
  cli
    .command('serve', 'Serve the existing .svc/ build (production: no watching)')
    .option('--host <host>', 'Address to listen on (`::` for IPv6 and IPv4); default from svc.json')
    .option('--port <port>', 'Port; default from svc.json')
    .action(async (options: ListenOptions) => {
      const listening = listenOptions(options);
      const root = process.cwd();
      try {
        return await serve(root, listening);
      } catch (e) {
        if (!(e instanceof MissingBuildError) && (e as Error).name !== 'GuardTokenMissingError') throw e;
        console.error(`svc: ${(e as Error).message}`);
        return 1;
      }
    });
}

/**
 * Serves until SIGTERM or SIGINT, then drains (shutdown.ts) and flushes the logs and
 * metrics. Exit code 0 when every request in flight finished, 1 when the grace period cut some.
 */
async function serve(root: string, listening: { host?: string; port?: number }): Promise<number> {
  const built = await loadBuild(root);
  const handler = await built.handler({ root });
  const server = await listen(handler, listening).catch(async (e: unknown) => {
    await handler.close();
    throw e;
  });
  console.log(`svc: serving ${serverUrl(server)}`);
  const graceMs = handler.app.manifest.config.server.shutdownGraceMs ?? DEFAULT_CONFIG.server.shutdownGraceMs;
  return new Promise<number>((resolve) => {
    onStopSignal(async (signal) => {
      console.log(`svc: ${signal}: finishing requests in flight (at most ${graceMs} ms)`);
      const outcome = await drain(server, graceMs);
      await handler.close();
      if (outcome === 'forced') console.error(`svc: requests still running after ${graceMs} ms were cut off`);
      resolve(outcome === 'drained' ? 0 : 1);
    });
  });
}
