// SVC007 warning: a built-in endpoint on a path that an application route's placeholders
// match too (endpoints.health "api/users/health" beside `GET /api/users/{id}`). A literal
// path wins, as for any two routes, so the endpoint answers that one path: said, not
// refused, since a catch-all such as `/{section}/{page}` beside the endpoints is common.
// Reported at the endpoint's svc.json key: moving the endpoint is the one-line fix.
import { warning, type Diagnostic } from '../diagnostics.ts';
import type { ParamKind, RouteClaim, Segment } from '../ir.ts';
import { BUILTIN_CONFIG_KEY } from '../config/builtin-routes.ts';
import { pathShapes } from '../route-shapes.ts';
import { routeAt } from '../locations.ts';

export function checkShadowedEndpoints(routes: readonly RouteClaim[]): Diagnostic[] {
  const application = routes.filter((route) => route.handler?.kind !== 'builtin');
  return routes.flatMap((endpoint) => {
    const { handler } = endpoint;
    const path = literalPath(endpoint.segments);
    if (handler?.kind !== 'builtin' || path === null) return [];
    const route = application.find((r) => r.method === endpoint.method && pathShapes(r.segments).some((shape) => shadows(shape.segments, path)));
    if (route === undefined) return [];
    const at = routeAt(route);
    return [
      warning('SVC007', `${BUILTIN_CONFIG_KEY[handler.name]}: the built-in ${handler.name} endpoint ${endpoint.method} ${endpoint.pattern} answers a path the route ${at} matches too`, endpoint.loc, [
        'a literal path wins over placeholders: if the route should answer it, choose another path for the endpoint in svc.json',
      ]),
    ];
  });
}

/** The segments' texts when all are literal; null when one is a placeholder. */
function literalPath(segments: readonly Segment[]): string[] | null {
  return segments.every((s) => s.kind === 'literal') ? segments.map((s) => (s as { value: string }).value) : null;
}

/** Whether `shape` has a placeholder and matches `path` (exact duplicates are SVC001's and the overlap check's). */
function shadows(shape: readonly Segment[], path: readonly string[]): boolean {
  if (shape.length !== path.length || shape.every((s) => s.kind === 'literal')) return false;
  return shape.every((s, i) => (s.kind === 'literal' ? s.value === path[i] : accepts(s.type, path[i]!)));
}

/** Whether a placeholder of `type` takes `text`, as the generated dispatcher converts it. */
function accepts(type: ParamKind, text: string): boolean {
  switch (type.kind) {
    case 'string':
      return true;
    case 'number': {
      const value = Number(text);
      return Number.isFinite(value) && String(value) === text && (type.values === undefined || type.values.includes(value));
    }
    case 'boolean':
      return text === 'true' || text === 'false';
    case 'enum':
      return type.values.includes(text);
  }
}
