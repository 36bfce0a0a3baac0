// An application's request handler: the build's routes bound, shoebox/ services opened,
// and the pipeline (pipeline.ts) that serves them, with the listeners node:http calls.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorPages } from '../errors/pages.ts';
import type { ClientAddress, IpFilter } from '../ip/index.ts';
import { logAndWarn, logWriter, useLog } from '../shoebox/log.ts';
import { RouteMetrics } from '../shoebox/metrics/route-metrics.ts';
import { closeDatabase, configureDatabase } from '../database/index.ts';
import { databaseFileProblem } from '../database/dialects.ts';
import { outsoleRoute } from '../endpoints/outsole.ts';
import type { CompiledApp } from './app.ts';
import { bindRoutes } from './bind.ts';
import { checkBuildData, compiledIpRules } from './build-shape.ts';
import { builtinEndpoints, type BuiltinRegistry } from './builtins.ts';
import { Pipeline } from './pipeline.ts';

export type { ClientAddress, IpFilter };

export interface HandlerOptions {
  /** The project root: shoebox/ and weave/Views/ live here. */
  root: string;
  /** `svc tread`: 500 responses show the error's message and stack. */
  dev?: boolean;
  /** Replaces the IP allow/deny decision compiled from svc.json (tests). */
  ipFilter?: IpFilter;
  /** Replaces the client address rule (socket peer, or X-Forwarded-For from a trusted proxy). */
  clientAddress?: ClientAddress;
  /** Built-in endpoint factories; defaults to those runtime/endpoints/ registered. */
  builtins?: BuiltinRegistry;
}

/** The listeners a `node:http` server calls; the pipeline (pipeline.ts) is one. */
export interface RequestListeners {
  /** A `node:http` request listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** A `node:http` 'checkContinue' listener: `100 Continue` goes out only when the body is read. */
  checkContinue(req: IncomingMessage, res: ServerResponse): void;
  /** A `node:http` 'checkExpectation' listener: any other `Expect` gets 417 with a body. */
  checkExpectation(req: IncomingMessage, res: ServerResponse): void;
  /** A `node:http` 'connect' listener: CONNECT requests get the same pipeline (connect.ts). */
  connect(req: IncomingMessage, socket: Duplex): void;
  /** A `node:http` 'clientError' listener: what node's parser refuses is answered and logged (client-error.ts). */
  clientError(error: Error, socket: Duplex): void;
}

export interface AppHandler extends RequestListeners {
  /** Writes out queued log lines and counts, and closes the database. */
  close(): Promise<void>;
  /** Writes the log lines and counts not yet written, synchronously: for a process that exits now. */
  closeNow(): void;
  readonly app: CompiledApp;
}

export async function createHandler(app: CompiledApp, options: HandlerOptions): Promise<AppHandler> {
  checkBuildData(app);
  const dev = options.dev ?? false;
  const config = app.manifest.config;
  const log = logWriter(options.root, config.logs);
  const [, metrics, pages, databaseProblem] = await Promise.all([
    configureDatabase({ root: options.root, config }),
    RouteMetrics.open(options.root, app.manifest.routes),
    ErrorPages.load(options.root, log),
    databaseFileProblem(config.database, options.root),
  ]);
  // Before binding: knots' start-up hooks may already call logError().
  useLog(log);
  if (databaseProblem) logAndWarn(log, 'database', `${databaseProblem}: every query will fail (health reports it down) until the file is replaced or database.path names another.`);
  const setup = { app, root: options.root, dev, config, metrics };
  const routes = await bindRoutes(app, options.builtins ?? builtinEndpoints, setup);
  const ip = compiledIpRules(app);
  const { handle, checkContinue, checkExpectation, connect, clientError } = new Pipeline(app, routes, pages, log, {
    dev,
    bodyLimit: config.server.bodyLimit,
    maxUrlLength: config.server.maxUrlLength,
    ipFilter: options.ipFilter ?? ip.ipFilter,
    clientAddress: options.clientAddress ?? ip.clientAddress,
    metrics,
    outsole: outsoleRoute(setup),
  });
  return {
    app,
    handle,
    checkContinue,
    checkExpectation,
    connect,
    clientError,
    close: async () => {
      await Promise.all([log.flush(), metrics.close(), closeDatabase()]);
    },
    closeNow: () => {
      metrics.saveNow();
      log.flushNow();
    },
  };
}

