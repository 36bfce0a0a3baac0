// The routes the document describes (application routes, not the built-in endpoints)
// and the paths each one appears under: `/profile/{name?}` is both `/profile` and
// `/profile/{name}`, since OpenAPI path parameters are always required.
import type { Handler, Route, Segment } from '../../ir.ts';

export type AppHandler = Exclude<Handler, { kind: 'builtin' }>;
export type AppRoute = Route & { handler: AppHandler };
export type Placeholder = Extract<Segment, { kind: 'param' }>;

export interface DocumentedPath {
  route: AppRoute;
  /** OpenAPI path template, e.g. `/users/{id}`. */
  path: string;
  segments: Segment[];
  /** With the index of the handler parameter each one binds to. */
  placeholders: Array<{ segment: Placeholder; index: number }>;
}

export const isAppRoute = (route: Route): route is AppRoute => route.handler.kind !== 'builtin';

export function documentedPaths(route: AppRoute): DocumentedPath[] {
  const last = route.segments.at(-1);
  const shapes = last?.kind === 'param' && last.optional ? [route.segments.slice(0, -1), route.segments] : [route.segments];
  return shapes.map((segments) => ({ route, segments, path: template(segments), placeholders: placeholders(segments) }));
}

function template(segments: Segment[]): string {
  return `/${segments.map((s) => (s.kind === 'literal' ? s.value : `{${s.name}}`)).join('/')}`;
}

function placeholders(segments: Segment[]): DocumentedPath['placeholders'] {
  return segments
    .filter((s): s is Placeholder => s.kind === 'param')
    .map((segment, index) => ({ segment, index }));
}

/**
 * OpenAPI allows one path template per shape: `GET /users/{id}` and `POST /users/{name}`
 * must share `/users/{id}`. Each shape keeps the placeholder names it was first seen with.
 */
export class PathTemplates {
  private readonly byShape = new Map<string, Segment[]>();

  canonical(documented: DocumentedPath): DocumentedPath {
    const shape = documented.segments.map((s) => (s.kind === 'literal' ? s.value : '{}')).join('/');
    const first = this.byShape.get(shape);
    if (first === undefined) {
      this.byShape.set(shape, documented.segments);
      return documented;
    }
    const segments = documented.segments.map((s, i) => (s.kind === 'param' ? { ...s, name: (first[i] as Placeholder).name } : s));
    return { ...documented, segments, path: template(segments), placeholders: placeholders(segments) };
  }
}
