// GET /<endpoints.metrics>: per-route hits and durations, as Prometheus text or, for
// `Accept: application/json`, as `{ routes: [{ method, path, hits, totalMs, avgMs }] }`.
import type { BuiltinFactory } from '../server/builtins.ts';
import { prefers } from '../http/accepts.ts';
import { roundedMs } from './format.ts';
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from './prometheus.ts';

export const metrics: BuiltinFactory = ({ metrics: counters }) => async (ctx) => {
  ctx.header('cache-control', 'no-store').header('vary', 'accept');
  const stats = await counters.current();
  if (prefers(ctx.headers.accept, 'application/json', 'text/plain')) {
    return { routes: stats.map(({ method, path, hits, totalMs, avgMs }) => ({ method, path, hits, totalMs: roundedMs(totalMs), avgMs: roundedMs(avgMs) })) };
  }
  ctx.header('content-type', PROMETHEUS_CONTENT_TYPE);
  return prometheusText(stats);
};
