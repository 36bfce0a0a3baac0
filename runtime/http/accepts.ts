// Reading the `Accept` header. Media types are case-insensitive (RFC 9110 §8.3.1);
// clients send them in lower case, which is tried first. Types are given in lower case.

/**
 * Whether the header names `type`, other than as not acceptable (`;q=0`, RFC 9110
 * §12.4.2): SPEC §4's test for an HTML error page. Only a header that names it is parsed.
 */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined || !(accept.includes(type) || accept.toLowerCase().includes(type))) return false;
  return quality(accept.toLowerCase().split(','), [type]) > 0;
}

/**
 * Whether the header names `type` (quality above 0) and asks for it at least as much as
 * for `other`, whose quality is that of the most specific range that covers it
 * (`text/plain`, else `text/*`, else `*\/*`, RFC 9110 §12.5.1). `type` must be named:
 * `*\/*` alone keeps the default, `other`.
 */
export function prefers(accept: string | undefined, type: string, other: string): boolean {
  if (accept === undefined) return false;
  const ranges = accept.toLowerCase().split(',');
  const wanted = quality(ranges, [type]);
  return wanted > 0 && wanted >= quality(ranges, [other, `${other.split('/')[0]}/*`, '*/*']);
}

/** The `q` of the range naming the first of `names` the header has (most specific first); 0 when it has none. */
function quality(ranges: readonly string[], names: readonly string[]): number {
  for (const name of names) {
    for (const range of ranges) {
      const [media, ...parameters] = range.split(';');
      if (media!.trim() !== name) continue;
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return q === undefined ? 1 : Number(q.slice(2)) || 0;
    }
  }
  return 0;
}
