// The dev server. This process compiles and watches; a child process (tread-server.mjs,
// kept by serving-process.ts) holds the listening socket and swaps in each good build, so
// an edit is served without a restart and a broken edit changes nothing.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from '../build.ts';
import { disposeContexts } from '../bundle/index.ts';
import { loadConfig } from '../config/index.ts';
import { guardToken } from '../../runtime/endpoints/guard.ts';
import { listenError } from '../../runtime/server/boot.ts';
import { onStopSignals } from '../../runtime/server/shutdown.ts';
import { printDiagnostics } from './print.ts';
import { ServingProcess, type Reply } from './serving-process.ts';
import { SourceWatcher } from './source-watcher.ts';

export async function tread(root: string, listen: { host?: string; port?: number }): Promise<void> {
  const { config } = await loadConfig(root);
  // Refused before anything starts, as `svc serve` refuses it: no edit to the sources would help.
  guardToken(config?.endpoints.guarded ?? false);
  const server = new ServingProcess(root, (why) => {
    console.error(`svc tread: ${why}; stopping. Fix the cause and start svc tread again.`);
    void disposeContexts().finally(() => process.exit(1));
  });
  let version = 0;
  let serving = false;

  /** Tells the server process to swap in the bundle just written. */
  async function load(): Promise<Reply> {
    const bundle = pathToFileURL(join(root, '.svc', 'app.mjs'));
    bundle.searchParams.set('v', String(++version)); // a fresh module for each build
    await access(bundle);
    return server.load(bundle.href);
  }

  async function rebuild(): Promise<void> {
    const started = performance.now();
    const since = watcher.building();
    let reply: Reply | undefined;
    // The new routes are served before the API document is rewritten (it is read per
    // request), and a build that fails to start leaves the served build's document.
    const onBundled = async (): Promise<boolean> => 'loaded' in (reply = await load());
    const result = await build(root, { incremental: true, onBundled });
    await watcher.follow(result.inputs, result.ok, since);
    // Files edited while it ran (an editor that empties a file, then writes it) may have
    // been read half-saved, by the analysis or the bundler: the queued build says how they are now.
    if (!result.ok && changed.pending()) return;
    printDiagnostics(result.diagnostics, false);
    if (!result.ok || !reply) {
      console.error(serving ? 'svc tread: build failed; still serving the last good build.' : 'svc tread: build failed; fix the errors above.');
      return;
    }
    if ('failed' in reply) {
      // Sources edited between the analysis and the bundle: the edit's own build is queued.
      if (reply.name === 'StaleBuildError' && changed.pending()) return;
      const still = serving ? 'still serving the last good build' : 'no build is served until one starts';
      console.error(`svc tread: the new build failed to start; ${still}.\n${reply.failed}`);
      return;
    }
    serving = true;
    const phases = result.timings.map(([phase, ms]) => `${phase} ${Math.round(ms)}`).join(', ');
    console.log(`svc tread: built ${result.table.routes.length} routes in ${Math.round(performance.now() - started)} ms (${phases})`);
  }

  // Watch from before the first build, so an edit saved while it runs is built next.
  const changed = serialised(rebuild);
  const watcher = await SourceWatcher.start(root, changed);
  await changed.now();
  const host = listen.host ?? config?.server.host ?? '127.0.0.1';
  const port = listen.port ?? config?.server.port ?? 6916;
  const reply = await server.listen(host, port);
  if ('failed' in reply) {
    await Promise.all([server.stop(), watcher.close(), disposeContexts()]);
    throw listenError(Object.assign(new Error(reply.failed), { code: reply.code }), host, port);
  }
  const stop = async (): Promise<void> => {
    // Requests in flight hold the exit back, within svc.json's grace period: say why.
    const waiting = setTimeout(() => console.log('svc tread: finishing requests in flight (Ctrl-C again to stop at once)'), 500);
    // esbuild's process is told first: exiting while a rebuild waits on our resolve hook
    // left it to die on its own, printing Go's deadlock report and goroutine dump.
    await Promise.all([watcher.close(), disposeContexts(), server.stop()]);
    clearTimeout(waiting);
    process.exit(0);
  };
  // A second Ctrl-C ends this process as a Ctrl-C with nothing listening would (the server
  // process hears it too, and stops at once); npm's copy of the first is not a second one.
  const unlisten = onStopSignals((signal, again) => {
    if (!again) return void stop();
    unlisten();
    process.kill(process.pid, signal);
  });
  // Said once a signal would stop it cleanly: whoever waits for the line may send one at once.
  if ('listening' in reply) console.log(`svc tread: serving ${reply.listening} (watching routes/, weave/, svc.json, tsconfig.json and the files they import)`);
}

/**
 * Runs `task` after a burst of events settles; events during a run queue exactly one more
 * run. `now()` runs it at once and resolves when it is done; `pending()` tells whether
 * another run is on its way.
 */
function serialised(task: () => Promise<void>): (() => void) & { now(): Promise<void>; pending(): boolean } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = task()
      .catch((e: unknown) => console.error('svc tread:', e))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void run();
        }
      });
    return running;
  };
  const later = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, 10);
  };
  return Object.assign(later, { now: run, pending: () => again || timer !== undefined });
}
