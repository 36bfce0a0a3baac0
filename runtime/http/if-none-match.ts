// If-None-Match (RFC 9110 §13.1.2), for every answer that carries an ETag: the cache's,
// the files of shoebox/outsole/ and the docs.

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
