// The dev server: one listening socket whose request handler is swapped for each good
// rebuild, so an edit is served without a restart and a broken edit changes nothing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { watch } from 'chokidar';
import type { AppHandler } from '../../runtime/server/index.ts';
import { build } from '../build.ts';
import { loadConfig } from '../config/index.ts';
import { loadBuild } from './load-build.ts';
import { serverUrl } from './options.ts';
import { printDiagnostics } from './print.ts';

export async function tread(root: string, listen: { host?: string; port?: number }): Promise<void> {
  let current: AppHandler | null = null;
  let version = 0;

  async function rebuild(): Promise<void> {
    const started = performance.now();
    const result = await build(root);
    printDiagnostics(result.diagnostics, false);
    if (!result.ok) {
      console.error(current ? 'svc tread: build failed; still serving the last good build.' : 'svc tread: build failed; fix the errors above.');
      return;
    }
    const built = await loadBuild(root, ++version);
    const next = await built.handler({ root, dev: true });
    const previous = current;
    current = next;
    await previous?.close();
    console.log(`svc tread: built ${result.table?.routes.length} routes in ${Math.round(performance.now() - started)} ms`);
  }

  await rebuild();
  const { config } = await loadConfig(root);
  const host = listen.host ?? config?.server.host ?? '127.0.0.1';
  const port = listen.port ?? config?.server.port ?? 6916;
  // Watch before announcing the address, so an edit made right after start-up is seen.
  const watcher = watch([join(root, 'routes'), join(root, 'weave'), join(root, 'svc.json')], { ignoreInitial: true });
  await new Promise<void>((resolve) => watcher.once('ready', resolve));
  watcher.on('all', serialised(rebuild));
  const server = createServer((req, res) => (current ? current.handle(req, res) : notBuilt(req, res)));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  console.log(`svc tread: serving ${serverUrl(server)} (watching routes/, weave/, svc.json)`);

  const stop = async (): Promise<void> => {
    await watcher.close();
    server.close();
    await current?.close();
    process.exit(0);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

function notBuilt(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('svc tread: no successful build yet; see the terminal.\n');
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
    timer = setTimeout(run, 25);
  };
}
