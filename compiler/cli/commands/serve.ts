import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { CAC } from 'cac';
import { listen } from '../../../runtime/server/boot.ts';
import { servePrimary } from '../../../runtime/server/cluster.ts';
import { drain, onStopSignal } from '../../../runtime/server/shutdown.ts';
import { fromPrimary, inSvcWorker } from '../../../runtime/shoebox/cluster-link.ts';
import { loadBuild, MissingBuildError } from '../load-build.ts';
import { listenOptions, serverUrl, type ListenOptions } from '../options.ts';
import { UsageError } from '../usage-error.ts';
import { EXPECTED_FAILURES } from '../expected-failures.ts';

interface ServeOptions extends ListenOptions {
  workers?: string | number;
}

export function register(cli: CAC): void {
  cli
    .command('serve', 'Serve the existing .svc/ build (production: no watching)')
    .option('--host <host>', 'Address to listen on (`::` for IPv6 and IPv4); default from svc.json')
    .option('--port <port>', 'Port; default from svc.json')
    .option('--workers <n>', 'Processes serving the port (node:cluster): a number, or "auto" for one per CPU', { default: 1 })
    .action(async (options: ServeOptions) => {
      const listening = listenOptions(options);
      const workers = workerCount(options.workers);
      const root = process.cwd();
      try {
        if (workers > 1 && cluster.isPrimary) {
          await loadBuild(root); // a missing or broken build fails here once, not in every worker
          return await servePrimary(root, workers);
        }
        // Failing would only have the process manager start it again, and again.
        if (workers > 1) console.error(`svc: --workers ${workers} is ignored in a process another cluster primary forked (PM2's cluster mode): it starts the instances`);
        return await serve(root, listening);
      } catch (e) {
        if (!(e instanceof MissingBuildError) && !EXPECTED_FAILURES.has((e as Error).name)) throw e;
        console.error(`svc: ${(e as Error).message}`);
        // A worker's channel to the primary keeps it alive; the primary sees it go and stops.
        if (cluster.isWorker) cluster.worker!.disconnect();
        return 1;
      }
    });
}

const WORKERS_PER_CPU = 4;

function workerCount(value: string | number | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1) throw new UsageError(`--workers must be a whole number of at least 1, or "auto" (one per CPU), got "${value}"`);
  // Each worker is a whole Node.js process (tens of MB): a slip like `--workers 1000` would
  // take the machine's memory, and beyond a few per CPU they only take turns on the CPUs.
  const most = WORKERS_PER_CPU * availableParallelism();
  if (count > most) throw new UsageError(`--workers may be at most ${most} here (${WORKERS_PER_CPU} per CPU), got ${count}; "auto" starts one per CPU`);
  return count;
}

/**
 * Serves until asked to stop, then drains (shutdown.ts) and flushes the logs and metrics.
 * Exit code 0 when every request in flight finished, 1 when the grace period cut some.
 */
async function serve(root: string, listening: { host?: string; port?: number }): Promise<number> {
  const stopped = stopRequest();
  const built = await loadBuild(root);
  const handler = await built.handler({ root });
  process.on('unhandledRejection', built.logUnhandledRejection);
  process.on('uncaughtExceptionMonitor', built.logUncaughtException);
  // An exit that cannot wait (a second Ctrl-C, `process.exit()` in a handler, an exception
  // nothing caught) still writes the counts and log lines it holds, or hands them to the primary.
  process.once('exit', () => handler.closeNow());
  const server = await listen(handler, listening).catch(async (e: unknown) => {
    await handler.close();
    throw e;
  });
  const graceMs = handler.app.manifest.config.server.shutdownGraceMs;
  const alone = !inSvcWorker();
  if (alone) console.log(`svc: serving ${serverUrl(server)}`);
  const reason = await stopped;
  if (alone) console.log(`svc: ${reason}: finishing requests in flight (at most ${graceMs} ms)`);
  const outcome = await drain(server, graceMs);
  await handler.close();
  if (outcome === 'forced') console.error(`svc: requests still running after ${graceMs} ms were cut off`);
  // Lets the process end once the last log lines and counts are on their way to the
  // primary; any cluster worker's open channel would keep it alive.
  if (cluster.isWorker) cluster.worker!.disconnect();
  return outcome === 'drained' ? 0 : 1;
}

/**
 * Resolves with what asked this process to stop: SIGTERM or SIGINT (a second one exits
 * at once), or, in a worker, the primary (runtime/server/cluster.ts). A worker hears
 * signals too (a Ctrl-C reaches the whole process group) and stops once whatever comes first.
 */
function stopRequest(): Promise<string> {
  return new Promise((resolve) => {
    if (!inSvcWorker()) return onStopSignal(resolve);
    fromPrimary('stop', () => resolve('stop'));
    process.on('SIGTERM', resolve).on('SIGINT', resolve);
  });
}
