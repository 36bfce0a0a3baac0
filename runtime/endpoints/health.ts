// GET /<endpoints.health> (SPEC §8). Every check runs at once and each is cut off after
// HEALTH_CHECK_BUDGET_MS, so the answer never takes much longer than that.
//
// What the overall status means:
//   down (503)     the database does not answer: most routes cannot do their work, and a
//                  load balancer should stop sending traffic here;
//   degraded (200) the cache folder is not writable or a service from `health.services`
//                  is unreachable: the server answers, some features suffer;
//   ok (200)       every check passed.
import { HEALTH_CHECK_BUDGET_MS, HEALTH_SERVICE_TIMEOUT_MS } from '../config.ts';
import { pingDatabase } from '../database/index.ts';
import type { BuiltinFactory } from '../server/builtins.ts';
import { probeCacheFolder, probeService, withDeadline, type CheckResult } from './health-checks.ts';

const DATABASE_TIMEOUT_MS = 2000;

export type HealthStatus = 'ok' | 'degraded' | 'down';

export const health: BuiltinFactory = ({ app, root, config }) => {
  const { services } = config.health;
  return async (ctx) => {
    const [database, cache, ...reachable] = await Promise.all([
      withDeadline(pingDatabase(DATABASE_TIMEOUT_MS), HEALTH_CHECK_BUDGET_MS),
      withDeadline(probeCacheFolder(root), HEALTH_CHECK_BUDGET_MS),
      ...services.map((service) => withDeadline(probeService(service, HEALTH_SERVICE_TIMEOUT_MS), HEALTH_CHECK_BUDGET_MS)),
    ]);
    const checks: Record<string, CheckResult> = { database: database!, cache: cache! };
    services.forEach((service, i) => {
      // A service called "database" or "cache" must not hide the framework's own check.
      checks[service.name in checks ? `service:${service.name}` : service.name] = reachable[i]!;
    });
    const status: HealthStatus = database!.status !== 'ok' ? 'down' : Object.values(checks).every((check) => check.status === 'ok') ? 'ok' : 'degraded';
    ctx.status(status === 'down' ? 503 : 200).header('cache-control', 'no-store');
    return {
      status,
      version: app.manifest.framework,
      uptime: Math.round(process.uptime() * 1000) / 1000,
      time: new Date().toISOString(),
      checks,
    };
  };
};
