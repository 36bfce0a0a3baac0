// Real servers for runtime tests: `boot` on 127.0.0.1, port 0, with a throw-away
// project root under test/.tmp/ (its shoebox/ and weave/ are the app's).
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import type { CompiledApp } from '../../runtime/server/app.ts';
import { boot, type AppHandler, type BootOptions, type HandlerOptions } from '../../runtime/server/index.ts';
import { flushLogs } from '../../runtime/shoebox/log.ts';
import { makeProject, removeProject, repoRoot } from './project.ts';

export interface Running {
  url: string;
  root: string;
  server: Server;
  /** Every svc.log line written so far. */
  logLines(): Promise<string[]>;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<Omit<BootOptions, 'root'>> {
  /** Files of the project root (e.g. `weave/Views/errors/404.hbs`). */
  files?: Record<string, string>;
}

export async function startApp(app: CompiledApp, options: StartOptions = {}): Promise<Running> {
  const { files = {}, ...boot } = options;
  const root = await makeProject(files);
  return running(root, await bootOn(app, root, boot), flushLogs);
}

/**
 * Builds a project tree with the real `svc build` and serves its `.svc/app.mjs` through
 * the bundle's own handler: the bundle carries its own copy of the runtime.
 */
export async function startProject(files: Record<string, string>, options: Partial<Omit<HandlerOptions, 'root'>> = {}): Promise<Running> {
  const root = await makeProject(files);
  const built = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'build'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`svc build failed in ${root}:\n${built.stdout}${built.stderr}`);
  const bundle = (await import(pathToFileURL(join(root, '.svc', 'app.mjs')).href)) as { handler(options: HandlerOptions): Promise<AppHandler> };
  const handler = await bundle.handler({ ...options, root });
  const server = createServer(handler.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return running(root, server, () => handler.close());
}

function bootOn(app: CompiledApp, root: string, options: StartOptions): Promise<Server> {
  return boot(app, { ...options, root, host: '127.0.0.1', port: 0 });
}

function running(root: string, server: Server, flush: () => Promise<void>): Running {
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    server,
    async logLines() {
      await flush();
      try {
        return (await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8')).split('\n').filter(Boolean);
      } catch {
        return [];
      }
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await flush();
      await removeProject(root);
    },
  };
}

/** The first chunk of the body at `url`, after which the client goes away (a download cancelled). */
export function firstChunk(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => res.once('data', (chunk: Buffer) => (req.destroy(), resolve(chunk))));
    req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
    req.end();
  });
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A request whose target is sent exactly as given (fetch would normalise `/a/../b` or
 * reject `/foo%`). `body` may be an array of chunks: it is then sent chunked.
 */
export function raw(
  url: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer | Array<string | Buffer> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/`, { method: init.method ?? 'GET', path: target, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const { body } = init;
    if (Array.isArray(body)) for (const chunk of body) req.write(chunk);
    else if (body !== undefined) req.write(body);
    req.end();
  });
}
