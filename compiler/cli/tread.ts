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

type Reply = { loaded: true } | { listening: string } | { failed: string; code?: string };

export async function tread(root: string, listen: { host?: string; port?: number }): Promise<void> {
  const { config } = await loadConfig(root);
  // Refused before anything starts, as `svc serve` refuses it: no edit to the sources would help.
  guardToken(config?.endpoints.guarded ?? false);
  const server = fork(join(frameworkRoot, 'compiler', 'cli', 'tread-server.mjs'), [], { cwd: root, execArgv: [], stdio: 'inherit' });
  let version = 0;
  let serving = false;

  /** Tells the server process to swap in the bundle just written. */
  async function load(): Promise<Reply> {
    const bundle = pathToFileURL(join(root, '.svc', 'app.mjs'));
    bundle.searchParams.set('v', String(++version)); // a fresh module for each build
    await access(bundle);
    return ask(server, { load: bundle.href });
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
      console.error(`svc tread: the new build failed to start; still serving the last good build.\n${reply.failed}`);
      return;
    }
    serving = true;
    const phases = result.timings.map(([phase, ms]) => `${phase} ${Math.round(ms)}`).join(', ');
    console.log(`svc tread: built ${result.table.routes.length} routes in ${Math.round(performance.now() - started)} ms (${phases})`);
  }

  await rebuild();
  const host = listen.host ?? config?.server.host ?? '127.0.0.1';
  const port = listen.port ?? config?.server.port ?? 6916;
  // Watch before announcing the address, so an edit made right after start-up is seen.
  // The root, filtered, rather than the folders themselves: a `weave/` made after start-up is watched too.
  const watched = (path: string): boolean => /^(|routes|weave)(\/|$)|^svc\.json$/.test(relative(root, path).split(sep).join('/'));
  const watcher = watch(root, { ignoreInitial: true, ignored: (path) => !watched(path) });
  await new Promise<void>((resolve) => watcher.once('ready', resolve));
  watcher.on('all', serialised(rebuild));
  const reply = await ask(server, { listen: { host, port } });
  if ('failed' in reply) {
    server.kill('SIGTERM');
    await Promise.all([watcher.close(), disposeContexts()]);
    throw listenError(Object.assign(new Error(reply.failed), { code: reply.code }), host, port);
  }
  if ('listening' in reply) console.log(`svc tread: serving ${reply.listening} (watching routes/, weave/, svc.json)`);

  const stop = async (): Promise<void> => {
    await watcher.close();
    server.kill('SIGTERM');
    process.exit(0);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  server.once('exit', (code) => {
    console.error(`svc tread: the server process exited (${code}).`);
    process.exit(1);
  });
}

/** One request to the server process, one reply (requests never overlap: rebuilds are serialised). */
function ask(child: ChildProcess, message: object): Promise<Reply> {
  return new Promise((resolve) => {
    child.once('message', (reply) => resolve(reply as Reply));
    child.send(message);
  });
}

/** Runs `task` after a burst of events settles; events during a run queue exactly one more run. */
function serialised(task: () => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = task()
      .catch((e: unknown) => console.error('svc tread:', e))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, 10);
  };
}
