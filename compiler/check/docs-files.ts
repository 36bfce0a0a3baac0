// SVC007: an application GET route on a file the docs page loads (`/svc/docs/swagger-ui.css`,
// `/svc/docs/openapi.json`). Its literal path beats the docs-asset endpoint's `{asset}`, as
// any literal beats a placeholder, so the page would get the route's answer instead and
// show nothing. Other names under the docs path are the application's to take.
// Reported at the endpoint's svc.json key, as the other endpoint collisions are.
import { error, type Diagnostic } from '../diagnostics.ts';
import type { RouteClaim } from '../ir.ts';
import { BUILTIN_CONFIG_KEY } from '../config/builtin-routes.ts';
import { routeAt } from '../locations.ts';
import { pathShapes, shapeKey } from '../route-shapes.ts';
import { OPENAPI_FILE, SWAGGER_UI_FILES } from '../../runtime/shoebox/assets.ts';

const PAGE_FILES = [...SWAGGER_UI_FILES, OPENAPI_FILE];

export function checkDocsFiles(routes: readonly RouteClaim[]): Diagnostic[] {
  const assets = routes.find((route) => route.handler?.kind === 'builtin' && route.handler.name === 'docs-asset');
  if (assets === undefined) return [];
  const folder = assets.segments.slice(0, -1);
  const taken = new Map(PAGE_FILES.map((name) => [shapeKey([...folder, { kind: 'literal', value: name }]), name]));
  return routes.flatMap((route) => {
    if (route.method !== 'GET' || route.handler?.kind === 'builtin') return [];
    const name = pathShapes(route.segments).map((shape) => taken.get(shapeKey(shape.segments))).find((found) => found !== undefined);
    if (name === undefined) return [];
    return [
      error('SVC007', `${BUILTIN_CONFIG_KEY['docs-asset']}: the route ${routeAt(route)} takes the place of ${name}, a file the built-in docs page loads (${assets.pattern}), and Swagger UI would not load`, assets.loc, [
        'choose another path for the endpoint in svc.json, or move the route',
      ]),
    ];
  });
}
