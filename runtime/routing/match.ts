// What the generated dispatcher's `match(method, path)` answers. Results for static
// paths are preallocated constants in the generated module, so treat them as read-only.
export type Match =
  | { readonly kind: 'found'; readonly route: number; readonly params: readonly unknown[] }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' }
  /** A typed placeholder (`id: number`) whose segment does not fit its type. */
  /** `expected`: what the placeholder accepts, in words (`a number`, `one of asc, desc`). */
  | { readonly kind: 'bad-param'; readonly route: number; readonly param: string; readonly expected: string };

/**
 * The dispatcher's `match` takes a path as a request gives it. Its `matchCanonical`, which
 * the server calls, needs `path` canonical (see `canonicalPath`): no query, no trailing
 * slash, no dot or empty segments, percent-escapes decoded except `%2F` and `%25`.
 */
export type MatchFn = (method: string, path: string) => Match;
