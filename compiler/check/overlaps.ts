// SVC001 and SVC002: two routes of one method that can match the same request.
// Each route covers one path shape, or two when its last placeholder is optional
// (`/p/{id?}` covers `/p` and `/p/{}`); placeholder names do not matter. A shared shape
// is a duplicate when the routes' full shapes are equal, otherwise an optional overlap.
// Reported at the later registration call, naming the earlier one. Built-in endpoints
// are left to checkEndpoints (SVC007), which points at svc.json instead.
import { error, type Diagnostic } from '../diagnostics.ts';
import type { Route, Segment } from '../ir.ts';

const shapeOf = (segments: readonly Segment[]): string =>
  '/' + segments.map((s) => (s.kind === 'literal' ? s.value : s.optional ? '{?}' : '{}')).join('/');

/** The concrete shapes a route matches. */
function covered(route: Route): string[] {
  const last = route.segments.at(-1);
  if (last?.kind !== 'param' || !last.optional) return [shapeOf(route.segments)];
  const without = route.segments.slice(0, -1);
  return [shapeOf(without), shapeOf([...without, { ...last, optional: false }])];
}

const where = (route: Route): string => `${route.loc.file}:${route.loc.line}:${route.loc.col}`;

export function checkOverlaps(routes: readonly Route[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const claimed = new Map<string, Route>();
  for (const route of routes) {
    if (route.handler.kind === 'builtin') continue;
    const reported = new Set<Route>();
    for (const shape of covered(route)) {
      const key = `${route.method} ${shape}`;
      const earlier = claimed.get(key);
      if (!earlier) {
        claimed.set(key, route);
        continue;
      }
      if (reported.has(earlier)) continue;
      reported.add(earlier);
      diagnostics.push(describe(route, earlier, shape));
    }
  }
  return diagnostics;
}

function describe(route: Route, earlier: Route, shape: string): Diagnostic {
  const self = `${route.method} ${route.pattern}`;
  const other = `${earlier.method} ${earlier.pattern}`;
  if (shapeOf(route.segments) === shapeOf(earlier.segments)) {
    return error('SVC001', `duplicate route ${self}: ${other} at ${where(earlier)} has the same path shape; remove one of them or change its path`, route.loc);
  }
  const path = shape.replaceAll('{}', '{…}');
  return error(
    'SVC002',
    `${self} overlaps ${other} at ${where(earlier)}: both match ${path}; make the optional placeholder required or remove one of the routes`,
    route.loc,
  );
}
