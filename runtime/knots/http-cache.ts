// The pieces of HTTP caching ShoeCacheKnots needs: Cache-Control directives
// (RFC 9111 §5.2), entity tags and If-None-Match (RFC 9110 §8.8.3, §13.1.2).
import { createHash } from 'node:crypto';
import type { HeaderValue } from '../http/outgoing.ts';

/** Directive names of a Cache-Control header, lower-cased (`no-store`, `max-age`…). */
export function cacheDirectives(value: HeaderValue | undefined): Set<string> {
  const directives = new Set<string>();
  if (value === undefined) return directives;
  for (const line of typeof value === 'object' ? value : [String(value)]) {
    for (const part of line.split(',')) {
      const name = part.split('=', 1)[0]!.trim().toLowerCase();
      if (name) directives.add(name);
    }
  }
  return directives;
}

/**
 * How long a shared cache may keep the response, by its own `Cache-Control`: `s-maxage`,
 * else `max-age` (RFC 9111 §5.2.2.10, §5.2.2.1), in seconds; undefined when it names
 * neither. A value that is not a number of seconds counts as 0, stale at once (§4.2.1).
 */
export function sharedMaxAge(value: HeaderValue | undefined): number | undefined {
  if (value === undefined) return undefined;
  const found: Partial<Record<'s-maxage' | 'max-age', number>> = {};
  for (const line of typeof value === 'object' ? value : [String(value)]) {
    for (const part of line.split(',')) {
      const [name = '', given = ''] = part.split('=', 2).map((text) => text.trim());
      const key = name.toLowerCase();
      if (key !== 's-maxage' && key !== 'max-age') continue;
      const seconds = given.replace(/^"(.*)"$/, '$1');
      found[key] ??= /^\d+$/.test(seconds) ? Number(seconds) : 0;
    }
  }
  return found['s-maxage'] ?? found['max-age'];
}

/** sha256 of the bytes, base64url: the cache's integrity check and its entity tags. */
export const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('base64url');

export const entityTag = (bodyDigest: string): string => `"${bodyDigest}"`;

/** Whether `If-None-Match` names `etag` (weak comparison, so `W/"x"` matches `"x"`), or is `*`. */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = opaque(etag);
  for (const tag of header.split(',')) {
    const candidate = tag.trim();
    if (candidate === '*' || opaque(candidate) === wanted) return true;
  }
  return false;
}

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
