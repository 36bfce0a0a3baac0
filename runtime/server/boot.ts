// `svc serve` / `svc tread`: the pipeline on a listening node:http server.
import { createServer, type Server } from 'node:http';
import type { CompiledApp } from './app.ts';
import { createHandler, type HandlerOptions } from './handler.ts';

export interface BootOptions extends HandlerOptions {
  /** Defaults to svc.json `server.host`; `::` listens on IPv6 and IPv4. */
  host?: string;
  /** Defaults to svc.json `server.port`; 0 picks a free port. */
  port?: number;
}

/** Resolves once the server listens; closing the server flushes the log. */
export async function boot(app: CompiledApp, options: BootOptions): Promise<Server> {
  const handler = await createHandler(app, options);
  const server = createServer(handler.handle);
  server.once('close', () => void handler.close());
  const { host = app.manifest.config.server.host, port = app.manifest.config.server.port } = options;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
