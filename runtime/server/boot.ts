// `svc serve`: the pipeline on a listening node:http server, with the
// limits that keep slow or hostile clients from holding connections (svc.json `server`).
import { createServer, type Server } from 'node:http';
import type { SvcConfig } from '../config.ts';
import type { CompiledApp } from './app.ts';
import { createHandler, type AppHandler, type HandlerOptions } from './handler.ts';
import { trackConnections } from './shutdown.ts';

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
      connectionsCheckingInterval: checkingInterval(settings.headersTimeoutMs),
      // The pipeline answers a missing Host as it answers any 400, with a body and a log line.
      requireHostHeader: false,
    },
    handler.handle,
  );
  answerHalfClosed(server);
  applyTimeouts(server, settings);
  trackConnections(server);
  server
    .on('checkContinue', handler.checkContinue)
    .on('checkExpectation', handler.checkExpectation)
    .on('connect', handler.connect)
    .on('clientError', handler.clientError);
  const { host = settings.host, port = settings.port } = options;
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException): void => reject(listenError(error, host, port));
    server.once('error', refused);
    server.listen({ host, port }, () => {
      server.off('error', refused);
      resolve();
    });
  });
  return server;
}

/**
 * How often node looks for requests past their timeouts (30 s by default, which would let
 * a slowloris client outlive a short headers timeout many times over). A request is cut
 * off at the first look after its time is up, so up to one interval late: a tenth of the
 * headers timeout (and so of the request timeout, never shorter) keeps that within 10%.
 */
const checkingInterval = (headersTimeoutMs: number): number => Math.min(1000, Math.max(50, Math.ceil(headersTimeoutMs / 10)));

/** The address cannot be had: said in one line by `svc serve` and `svc tread`, not as a stack. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process; stop it, or choose another port with --port or svc.json server.port',
  EACCES: 'this process may not listen on that port; choose one above 1023',
  EADDRNOTAVAIL: 'the host is not an address of this machine; choose another with --host or svc.json server.host',
  ENOTFOUND: 'the host name does not resolve; choose another with --host or svc.json server.host',
  EAI_AGAIN: 'the host name does not resolve; choose another with --host or svc.json server.host',
};

export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const problem = error.code === undefined ? undefined : LISTEN_PROBLEMS[error.code];
  if (problem === undefined) return error;
  return new ListenError(`cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${problem} (${error.code})`);
}

/**
 * A client that shuts down its sending side once its request is out (`printf … | nc -N`,
 * some HTTP/1.0 clients) still wants the answer: a half-close neither ends a request nor
 * says the client has lost interest (RFC 9112 §9.6). Node's default aborts the requests
 * in flight at the client's FIN; with this it answers them, then closes. The property is
 * not in Node's documented API, but every release svc supports reads it
 * (`_http_server.js`, socketOnEnd); test/robustness/half-close.test.ts pins the behaviour.
 */
function answerHalfClosed(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
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
