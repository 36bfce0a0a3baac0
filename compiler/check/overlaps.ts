// SVC001, SVC002 and SVC007: two routes of one method that can match the same request,
// found by the shapes each covers (compiler/route-shapes.ts); placeholder names do not
// matter. A shared shape is a duplicate when the routes' full shapes are equal,
// otherwise an optional overlap. Reported at the later registration call, naming the
// earlier one. The built-in endpoints come after the application's routes, so one that
// lands on a route is reported at its svc.json key: moving the endpoint is the one-line
// fix. Two endpoints on one path are left to the config phase, which reports them already.
import { error, type Diagnostic } from '../diagnostics.ts';
import type { RouteClaim, Segment } from '../ir.ts';
import { BUILTIN_CONFIG_KEY } from '../config/builtin-routes.ts';
import { pathShapes, pathText, shapeKey } from '../route-shapes.ts';
import { routeAt } from '../locations.ts';

const isBuiltin = (route: RouteClaim): boolean => route.handler?.kind === 'builtin';

export function checkOverlaps(routes: readonly RouteClaim[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const claimed = new Map<string, RouteClaim>();
  for (const route of routes) {
    const reported = new Set<RouteClaim>();
    for (const { segments } of pathShapes(route.segments)) {
      const key = `${route.method} ${shapeKey(segments)}`;
      const earlier = claimed.get(key);
      if (!earlier) {
        claimed.set(key, route);
        continue;
      }
      if (reported.has(earlier) || (isBuiltin(route) && isBuiltin(earlier))) continue;
      reported.add(earlier);
      diagnostics.push(describe(route, earlier, segments));
    }
  }
  return diagnostics;
}

function describe(route: RouteClaim, earlier: RouteClaim, shape: Segment[]): Diagnostic {
  const self = `${route.method} ${route.pattern}`;
  const other = routeAt(earlier);
  if (route.handler?.kind === 'builtin') {
    const { name } = route.handler;
    return error('SVC007', `${BUILTIN_CONFIG_KEY[name]}: the built-in ${name} endpoint ${self} collides with the route ${other}`, route.loc, [
      'choose another path for the endpoint in svc.json, or move the route',
    ]);
  }
  if (shapeKey(route.segments) === shapeKey(earlier.segments)) {
    return error('SVC001', `duplicate route ${self}: ${other} has the same path shape; remove one of them or change its path`, route.loc);
  }
  return error(
    'SVC002',
    `${self} overlaps ${other}: both match ${pathText(shape, () => '{…}')}; make the optional placeholder required or remove one of the routes`,
    route.loc,
  );
}
