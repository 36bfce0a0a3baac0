// The built-in endpoints (SPEC §8) by their manifest name. With svc.json
// `endpoints.guarded` each one first checks the bearer token (SPEC §6); the check is
// set up with the endpoint, so a guarded server without SVC_GUARD_TOKEN never starts.
import type { BuiltinFactory, BuiltinRegistry } from '../server/builtins.ts';
import { dashboard } from './dashboard.ts';
import { docs, docsAsset } from './docs.ts';
import { bearerGuard } from './guard.ts';
import { health } from './health.ts';
import { metrics } from './metrics.ts';

function guarded(factory: BuiltinFactory): BuiltinFactory {
  return async (setup) => {
    const guard = bearerGuard(setup.config.endpoints.guarded);
    const endpoint = await factory(setup);
    if (guard === null) return endpoint;
    return (ctx) => {
      guard(ctx);
      return endpoint(ctx);
    };
  };
}

export const endpoints: BuiltinRegistry = {
  docs: guarded(docs),
  'docs-asset': guarded(docsAsset),
  health: guarded(health),
  dashboard: guarded(dashboard),
  metrics: guarded(metrics),
};
