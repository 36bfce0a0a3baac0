// The framework's own endpoints (SPEC §8) are routes whose manifest handler is
// `{ kind: 'builtin', name }`. Each name maps to a factory, run once at start-up, that
// returns the endpoint; its return value is converted like any handler's. A name with
// no factory answers 404.
import type { SvcConfig } from '../config.ts';
import type { Context } from '../context.ts';
import { endpoints } from '../endpoints/index.ts';
import type { ManifestHandler } from '../manifest.ts';
import type { RouteMetrics } from '../shoebox/metrics/route-metrics.ts';
import type { CompiledApp } from './app.ts';

export type BuiltinName = Extract<ManifestHandler, { kind: 'builtin' }>['name'];

export interface BuiltinSetup {
  app: CompiledApp;
  root: string;
  /** `app.manifest.config`: svc.json with every default filled in. */
  config: SvcConfig;
  dev: boolean;
  /** The per-route counters the pipeline records into (read by the metrics and dashboard endpoints). */
  metrics: RouteMetrics;
}

export type BuiltinEndpoint = (ctx: Context) => unknown;
export type BuiltinFactory = (setup: BuiltinSetup) => BuiltinEndpoint | Promise<BuiltinEndpoint>;
export type BuiltinRegistry = Partial<Record<BuiltinName, BuiltinFactory>>;

/** docs, docs-asset, health, dashboard and metrics, from runtime/endpoints/. */
export const builtinEndpoints: BuiltinRegistry = endpoints;
