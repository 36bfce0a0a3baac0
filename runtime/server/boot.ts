// `svc serve`: the pipeline on a listening node:http server, with the
// limits that keep slow or hostile clients from holding connections (svc.json `server`).
import { createServer, type Server } from 'node:http';
import type { SvcConfig } from '../config.ts';
import type { CompiledApp } from './app.ts';
import { createHandler, type AppHandler, type HandlerOptions } from './handler.ts';

export interface ListenOptions {
  /** Defaults to svc.json `server.host`; `::` listens on IPv6 and IPv4. */
  host?: string;
  /** Defaults to svc.json `server.port`; 0 picks a free port. */
  port?: number;
}

export interface BootOptions extends HandlerOptions, ListenOptions {}

/** Resolves once the server listens; closing the server flushes the log. */
export async function boot(app: CompiledApp, options: BootOptions): Promise<Server> {
  const handler = await createHandler(app, options);
  let server: Server;
  try {
    server = await listen(handler, options);
  } catch (e) {
    await handler.close();
    throw e;
  }
  server.once('close', () => void handler.close());
  return server;
}

/**
 * A server for `handler` with the application's timeouts, listening. Closing it leaves
 * the handler open: the caller flushes it once the last request is done (shutdown.ts).
 */
export async function listen(handler: AppHandler, options: ListenOptions = {}): Promise<Server> {
  const settings = handler.app.manifest.config.server;
  const server = createServer(
    {
      // Node looks for expired requests on this interval (30 s by default), which would
      // let a slowloris client outlive a short headers timeout many times over.
      connectionsCheckingInterval: Math.min(1000, settings.headersTimeoutMs),
    },
    handler.handle,
  );
  applyTimeouts(server, settings);
  server.on('connect', handler.connect);
  const { host = settings.host, port = settings.port } = options;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/**
 * svc.json's limits on slow and idle clients. Node reads them at each check, so `svc
 * tread` applies each new build's to the server it keeps listening (tread-server.mjs).
 */
export function applyTimeouts(server: Server, settings: SvcConfig['server']): void {
  const { headersTimeoutMs, requestTimeoutMs } = settings;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(`svc.json server.headersTimeoutMs (${headersTimeoutMs}) must not exceed server.requestTimeoutMs (${requestTimeoutMs}).`);
  }
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
}
