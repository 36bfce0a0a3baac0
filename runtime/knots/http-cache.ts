// The pieces of HTTP caching ShoeCacheKnots needs: Cache-Control directives
// (RFC 9111 §5.2) and entity tags (RFC 9110 §8.8.3); If-None-Match is runtime/http/if-none-match.ts.
import { createHash } from 'node:crypto';
import type { HeaderValue } from '../http/outgoing.ts';

/**
 * The directives of a Cache-Control header: lower-cased name → its value, unquoted (`''`
 * for a directive without one). A name given twice keeps its first value.
 */
export function cacheDirectives(value: HeaderValue | undefined): Map<string, string> {
  const directives = new Map<string, string>();
  if (value === undefined) return directives;
  for (const line of typeof value === 'object' ? value : [String(value)]) {
    for (const part of line.split(',')) {
      const [name = '', given = ''] = part.split('=', 2).map((text) => text.trim());
      const key = name.toLowerCase();
      if (key && !directives.has(key)) directives.set(key, given.replace(/^"(.*)"$/, '$1'));
    }
  }
  return directives;
}

/**
 * How long a shared cache may keep a response, by its directives: `s-maxage`, else
 * `max-age` (RFC 9111 §5.2.2.10, §5.2.2.1), in seconds; undefined when it names neither.
 * A value that is not a number of seconds counts as 0, stale at once (§4.2.1).
 */
export function sharedMaxAge(directives: ReadonlyMap<string, string>): number | undefined {
  const given = directives.get('s-maxage') ?? directives.get('max-age');
  if (given === undefined) return undefined;
  return /^\d+$/.test(given) ? Number(given) : 0;
}

/** sha256 of the bytes, base64url: the cache's integrity check and its entity tags. */
export const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('base64url');

export const entityTag = (bodyDigest: string): string => `"${bodyDigest}"`;
