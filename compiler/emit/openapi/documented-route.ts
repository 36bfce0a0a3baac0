// The routes the document describes (application routes, not the built-in endpoints)
// and the paths each one appears under: `/profile/{name?}` is both `/profile` and
// `/profile/{name}`, since OpenAPI path parameters are always required.
import type { Handler, Route, Segment } from '../../ir.ts';
import { pathShapes, pathText, placeholders, shapeKey, type Placeholder } from '../../route-shapes.ts';

export type AppHandler = Exclude<Handler, { kind: 'builtin' }>;
export type AppRoute = Route & { handler: AppHandler };

export interface DocumentedPath {
  route: AppRoute;
  /** OpenAPI path template, e.g. `/users/{id}`. */
  path: string;
  segments: Segment[];
  /** With the index of the handler parameter each one binds to. */
  placeholders: Array<{ segment: Placeholder; index: number }>;
}

export const isAppRoute = (route: Route): route is AppRoute => route.handler.kind !== 'builtin';

export const documentedPaths = (route: AppRoute): DocumentedPath[] =>
  pathShapes(route.segments).map(({ segments }) => documentedPath(route, segments));

const documentedPath = (route: AppRoute, segments: Segment[]): DocumentedPath => ({
  route,
  segments,
  path: pathText(segments),
  placeholders: placeholders(segments).map((segment, index) => ({ segment, index })),
});

/**
 * OpenAPI allows one path template per shape: `GET /users/{id}` and `POST /users/{name}`
 * must share `/users/{id}`. Each shape keeps the placeholder names it was first seen with.
 */
export class PathTemplates {
  private readonly byShape = new Map<string, Segment[]>();

  canonical(documented: DocumentedPath): DocumentedPath {
    const shape = shapeKey(documented.segments);
    const first = this.byShape.get(shape);
    if (first === undefined) {
      this.byShape.set(shape, documented.segments);
      return documented;
    }
    const segments = documented.segments.map((s, i) => (s.kind === 'param' ? { ...s, name: (first[i] as Placeholder).name } : s));
    return documentedPath(documented.route, segments);
  }
}
