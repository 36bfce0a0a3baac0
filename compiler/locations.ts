// How the compiler writes a place in the sources, in messages and in its output:
// `routes/api.ts:12:3`, the form every diagnostic's head has too (diagnostics.ts).
import type { RouteClaim, SourceLocation } from './ir.ts';

export const formatLocation = (loc: SourceLocation): string => `${loc.file}:${loc.line}:${loc.col}`;

/** `GET /users/{id} at routes/api.ts:12:3`: a route named in another one's message. */
export const routeAt = (route: Pick<RouteClaim, 'method' | 'pattern' | 'loc'>): string => `${route.method} ${route.pattern} at ${formatLocation(route.loc)}`;
