// `svc serve` / `svc tread`: the pipeline on a listening node:http server, with the
// limits that keep slow or hostile clients from holding connections (svc.json `server`).
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_CONFIG } from '../config.ts';
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
  const settings = { ...DEFAULT_CONFIG.server, ...handler.app.manifest.config.server };
  const { headersTimeoutMs, requestTimeoutMs } = settings;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(`svc.json server.headersTimeoutMs (${headersTimeoutMs}) must not exceed server.requestTimeoutMs (${requestTimeoutMs}).`);
  }
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // Node looks for expired requests on this interval (30 s by default), which would
      // let a slowloris client outlive a short headers timeout many times over.
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
    },
    handler.handle,
  );
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  server.on('connect', refuseConnect);
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

/** Without a listener, node drops a CONNECT request's socket without a word; svc is no proxy, its target no path: 400. */
function refuseConnect(_req: unknown, socket: Duplex): void {
  const status = 400;
  const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, detail: 'CONNECT is not supported: this server is not a proxy.' });
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
