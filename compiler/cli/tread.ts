// The dev server. This process compiles and watches; a child process (tread-server.mjs)
// holds the listening socket and swaps in each good build, so an edit is served without a
// restart and a broken edit changes nothing.
import { fork, type ChildProcess } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { watch } from 'chokidar';
import { build } from '../build.ts';
import { disposeContexts } from '../bundle/index.ts';
import { loadConfig } from '../config/index.ts';
import { frameworkRoot } from '../framework.ts';
import { guardToken } from '../../runtime/endpoints/guard.ts';
import { listenError } from '../../runtime/server/boot.ts';
import { printDiagnostics } from './print.ts';

type Reply = { loaded: true } | { listening: string } | { failed: string; code?: string; name?: string };

export async function tread(root: string, listen: { host?: string; port?: number }): Promise<void> {
  const { config } = await loadConfig(root);
  // Refused before anything starts, as `svc serve` refuses it: no edit to the sources would help.
  guardToken(config?.endpoints.guarded ?? false);
  const server = fork(join(frameworkRoot, 'compiler', 'cli', 'tread-server.mjs'), [], { cwd: root, execArgv: [], stdio: 'inherit' });
  const ask = asker(server);
  let version = 0;
  let serving = false;

  /** Tells the server process to swap in the bundle just written. */
  async function load(): Promise<Reply> {
    const bundle = pathToFileURL(join(root, '.svc', 'app.mjs'));
    bundle.searchParams.set('v', String(++version)); // a fresh module for each build
    await access(bundle);
    return ask({ load: bundle.href });
  }

  async function rebuild(): Promise<void> {
    const started = performance.now();
    let reply: Reply | undefined;
    // The new routes are served before the API document is rewritten (it is read per request).
    const result = await build(root, { incremental: true, onBundled: async () => void (reply = await load()) });
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
  // The root, filtered, rather than the folders themselves: a `weave/` made after start-up is watched too.
  const watched = (path: string): boolean => /^(|routes|weave)(\/|$)|^svc\.json$/.test(relative(root, path).split(sep).join('/'));
  const watcher = watch(root, { ignoreInitial: true, ignored: (path) => !watched(path) });
  await new Promise<void>((resolve) => watcher.once('ready', resolve));
  const changed = serialised(rebuild);
  watcher.on('all', changed);
  await changed.now();
  const host = listen.host ?? config?.server.host ?? '127.0.0.1';
  const port = listen.port ?? config?.server.port ?? 6916;
  const reply = await ask({ listen: { host, port } });
  if ('failed' in reply) {
    server.kill('SIGTERM');
    await Promise.all([watcher.close(), disposeContexts()]);
    throw listenError(Object.assign(new Error(reply.failed), { code: reply.code }), host, port);
  }
  if ('listening' in reply) console.log(`svc tread: serving ${reply.listening} (watching routes/, weave/, svc.json)`);

  const died = (code: number | null): void => {
    console.error(`svc tread: the server process exited (${code}).`);
    process.exit(1);
  };
  const stop = async (): Promise<void> => {
    server.off('exit', died);
    await watcher.close();
    await stopServer(server);
    process.exit(0);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  server.once('exit', died);
}

/**
 * Asks the server process to stop, and kills it if it has not within a second: one stuck
 * in an endless loop (a module's top level, a handler) never runs its signal handler,
 * and would be left holding the port.
 */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

const STOP_GRACE_MS = 1000;

/**
 * Requests to the server process, one at a time: each is sent once the previous one has
 * its reply, so replies cannot cross (a rebuild queued during the first build loads
 * while the server is told to listen).
 */
function asker(child: ChildProcess): (message: object) => Promise<Reply> {
  let previous: Promise<unknown> = Promise.resolve();
  return (message) => {
    const reply = previous.then(
      () =>
        new Promise<Reply>((resolve) => {
          child.once('message', (answer) => resolve(answer as Reply));
          child.send(message);
        }),
    );
    previous = reply;
    return reply;
  };
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
