// The `$ref`s of a schema as analysis leaves them (component keys, type-names.ts), and
// which schemas a handler has: what naming.ts names and handler-cache.ts keeps.
import type { Handler } from '../../ir.ts';

/** Calls `visit` with each `$ref` of `schema`, depth first, in document order. */
export function forEachRef(schema: unknown, visit: (ref: string) => void): void {
  if (Array.isArray(schema)) for (const item of schema) forEachRef(item, visit);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [keyword, inner] of Object.entries(schema)) {
      if (keyword === '$ref' && typeof inner === 'string') visit(inner);
      else forEachRef(inner, visit);
    }
  }
}

/** Parameters, request body, return type: in the order the document meets them. */
export function handlerSchemas(handler: Handler): unknown[] {
  if (handler.kind === 'builtin') return [];
  return [...handler.params.map((p) => p.schema), handler.calls.body, handler.returns];
}
