// SVC007: a built-in endpoint whose path an application route already serves (same
// method, same shape with placeholder names ignored). Reported at the endpoint's key in
// svc.json, since moving the endpoint is the one-line fix.
import { error, type Diagnostic } from '../diagnostics.ts';
import type { Route, RouteTable, Segment } from '../ir.ts';
import { BUILTIN_CONFIG_KEY } from '../config/builtin-routes.ts';

export function checkEndpoints(table: RouteTable): Diagnostic[] {
  const application = new Map<string, Route>();
  for (const route of table.routes) {
    if (route.handler.kind === 'builtin') continue;
    for (const shape of shapes(route)) if (!application.has(shape)) application.set(shape, route);
  }
  const diagnostics: Diagnostic[] = [];
  for (const route of table.routes) {
    if (route.handler.kind !== 'builtin') continue;
    const taken = application.get(shapes(route)[0]);
    if (taken === undefined) continue;
    diagnostics.push(
      error(
        'SVC007',
        `${BUILTIN_CONFIG_KEY[route.handler.name]}: the built-in ${route.handler.name} endpoint ${route.method} ${route.pattern} collides with the route ${taken.method} ${taken.pattern} at ${taken.loc.file}:${taken.loc.line}:${taken.loc.col}`,
        route.loc,
        ['choose another path for the endpoint in svc.json, or move the route'],
      ),
    );
  }
  return diagnostics;
}

/** `GET /users/{}` keys for every path the route answers: an optional placeholder answers with and without its segment. */
function shapes(route: Route): string[] {
  const key = (segments: Segment[]): string =>
    `${route.method} /${segments.map((s) => (s.kind === 'literal' ? s.value : '{}')).join('/')}`;
  const last = route.segments.at(-1);
  return last?.kind === 'param' && last.optional ? [key(route.segments), key(route.segments.slice(0, -1))] : [key(route.segments)];
}
