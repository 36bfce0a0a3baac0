// Projects built once with the real `svc build` and served through their own bundle on
// port 0, as often as a test needs: serving the same root again is a restart (shoebox/
// is kept), which is what the metrics persistence is about.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { AppHandler, HandlerOptions } from '../../runtime/server/index.ts';
import { makeProject, repoRoot } from '../support/project.ts';

export const svcBin = join(repoRoot, 'bin', 'svc.js');

/** A minimal application: a closure with a placeholder, a POST, a route that fails. */
export const appFiles: Record<string, string> = {
  'routes/api.ts': `
import type { Router } from 'svc';

export default (router: Router) => {
  /** Greets by name */
  router.sewGet('/hello/{name}', (name: string) => ({ hello: name }));
  router.sewPost('/items', () => ({ created: true }));
  router.sewGet('/boom', () => {
    throw new Error('boom');
  });
};
`,
};

/**
 * A route file whose `GET /asset-urls` answers with `shoeAsset()` of each path, by key,
 * as its module computed them when it loaded and as a request computes them.
 */
export function assetUrlsRoute(paths: Record<string, string>): string {
  const urls = `{ ${Object.entries(paths).map(([key, path]) => `${key}: shoeAsset('${path}')`).join(', ')} }`;
  return `import { shoeAsset, type Router } from 'svc';

const atLoad = ${urls};

export default (router: Router) => {
  router.get('/asset-urls', () => ({ atLoad, atRequest: ${urls} }));
};
`;
}

/** The URLs of an `assetUrlsRoute`, the same whether computed as its module loaded or per request. */
export async function assetUrls(served: Served): Promise<Record<string, string>> {
  const { atLoad, atRequest } = JSON.parse((await get(`${served.url}/asset-urls`)).body) as Record<'atLoad' | 'atRequest', Record<string, string>>;
  assert.deepEqual(atLoad, atRequest, 'shoeAsset() at the top level of a module');
  return atRequest;
}

/** Runs `svc <args>` in `root`; throws with its output when it fails. */
export function svcOk(root: string, ...args: string[]): string {
  const run = spawnSync(process.execPath, [svcBin, ...args], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`svc ${args.join(' ')} failed in ${root}:\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** A project tree under test/.tmp/ with `svc.json` (when given) and `svc build` run in it. */
export async function buildProject(svcJson?: object, files: Record<string, string> = appFiles): Promise<string> {
  const root = await makeProject(svcJson === undefined ? files : { ...files, 'svc.json': JSON.stringify(svcJson, null, 2) });
  svcOk(root, 'build');
  return root;
}

export interface Served {
  url: string;
  handler: AppHandler;
  /** Stops listening and runs the handler's shutdown (`close()`: logs and metrics written). */
  stop(): Promise<void>;
}

/** Servers a failed assertion left listening: stopped at the end, or the test file would never exit. */
const listening = new Set<Served>();
after(() => Promise.all([...listening].map((served) => served.stop())));

/** Serves the build in `root` from its `.svc/app.mjs`, like `svc serve` does. */
export async function serve(root: string, options: Partial<Omit<HandlerOptions, 'root'>> = {}): Promise<Served> {
  const bundle = (await import(pathToFileURL(join(root, '.svc', 'app.mjs')).href)) as { handler(options: HandlerOptions): Promise<AppHandler> };
  const handler = await bundle.handler({ ...options, root });
  const server = createServer(handler.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const served: Served = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    handler,
    async stop() {
      listening.delete(served);
      await closeServer(server);
      await handler.close();
    },
  };
  listening.add(served);
  return served;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** GET (or `init.method`) with fetch, the body read as text. */
export async function get(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}
