// operationIds: `UserController.show` for controller methods; for closures the route
// file and the documented path, `api.getUsersById`. Repeats get `_2`, `_3`… in route
// order, so every id is unique and stable.
import { pascal } from '../source-text.ts';
import type { DocumentedPath } from './documented-route.ts';

export function baseOperationId({ route, segments }: DocumentedPath): string {
  if (route.handler.kind === 'controller') return `${route.handler.className}.${route.handler.method}`;
  const words = segments.map((s) => (s.kind === 'literal' ? pascal(s.value) : `By${pascal(s.name)}`));
  return `${fileTag(route.file)}.${route.method.toLowerCase()}${words.join('') || 'Root'}`;
}

/** `routes/api.ts` → `api`. */
export const fileTag = (file: string): string => file.replace(/^routes\//, '').replace(/\.ts$/, '');
