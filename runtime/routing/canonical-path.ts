// The one form of a request path that both the IP filter and the router see, so that no
// encoding trick (`/%61dmin`, `%2F`, dot segments) reaches a route while missing that
// route's IP rule (SPEC §4).

const SLASH = 0x2f;
const DOT = 0x2e;
const PERCENT = 0x25;
const QUESTION = 0x3f;
const HASH = 0x23;

/**
 * The canonical path of a request target (`req.url`): query and fragment cut, each
 * segment percent-decoded as UTF-8 except `%2F` and `%25`, which stay escaped (upper-case)
 * so that a segment never splits in two nor decodes twice; `.` and `..` segments resolved,
 * encoded ones too; empty segments and a trailing slash dropped.
 *
 * An absolute-form target (`http://host/path`, which RFC 9112 §3.2.2 says a server must
 * accept) counts by its path alone. Returns `null` (the caller answers 400) for any other
 * target that does not start with `/` (`*`, `users`), and for one that holds a malformed
 * escape or bytes that are not UTF-8. A target with nothing to change is returned as it
 * is, after one scan and no allocation.
 */
export function canonicalPath(target: string): string | null {
  const path = pathOf(target);
  if (path === null || isCanonical(path)) return path;
  const { segments, malformed } = resolve(path);
  return malformed ? null : `/${segments.join('/')}`;
}

/**
 * For the IP rules of a target `canonicalPath` refuses: the canonical form of the
 * segments before its first malformed one (`/admin/%ZZ` is `/admin`), `/` for a target
 * that is no path. A denied client gets its 403 where the path's rules are knowable.
 */
export function wellFormedPrefix(target: string): string {
  const path = pathOf(target);
  return path === null ? '/' : `/${resolve(path).segments.join('/')}`;
}

/** The path of an origin-form or absolute-form target; `null` for any other. */
function pathOf(target: string): string | null {
  if (target.charCodeAt(0) === SLASH) return target;
  const origin = originLength(target);
  if (origin < 0) return null;
  // `http://host` and `http://host?q` name the root.
  const rest = target.slice(origin);
  return rest.charCodeAt(0) === SLASH ? rest : `/${rest}`;
}

/**
 * The length of the `http://host` or `https://host` (scheme in any case) that `target`
 * starts with, -1 when it starts otherwise. A scan, not a regular expression: no request
 * runs one (SPEC §3).
 */
function originLength(target: string): number {
  const scheme = target.slice(0, 8).toLowerCase();
  let end = scheme.startsWith('https://') ? 8 : scheme.startsWith('http://') ? 7 : -1;
  if (end < 0) return -1;
  while (end < target.length) {
    const c = target.charCodeAt(end);
    if (c === SLASH || c === QUESTION || c === HASH) break;
    end++;
  }
  return end;
}

/** Conservative: any segment starting with a dot takes the slow path, which keeps it unless it is `.` or `..`. */
function isCanonical(target: string): boolean {
  const last = target.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = target.charCodeAt(i);
    if (c === PERCENT || c === QUESTION || c === HASH) return false;
    if (c === SLASH) {
      const next = target.charCodeAt(i + 1); // NaN past the end
      if (next === SLASH || next === DOT || (i === last && i > 0)) return false;
    }
  }
  return true;
}

/** The path's segments decoded, dot segments resolved, up to the first malformed one. */
function resolve(path: string): { segments: string[]; malformed: boolean } {
  const segments: string[] = [];
  for (const raw of path.slice(1, pathEnd(path)).split('/')) {
    const segment = raw.includes('%') ? decodeSegment(raw) : raw;
    if (segment === null) return { segments, malformed: true };
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return { segments, malformed: false };
}

function pathEnd(target: string): number {
  const query = target.indexOf('?');
  const fragment = target.indexOf('#');
  if (query === -1) return fragment === -1 ? target.length : fragment;
  return fragment === -1 ? query : Math.min(query, fragment);
}

/** `decodeURIComponent` rejects malformed escapes and invalid UTF-8 (overlong forms, surrogates). */
function decodeSegment(raw: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  // `%` first, so that the `%` of a new `%2F` is not escaped again.
  return text.replaceAll('%', '%25').replaceAll('/', '%2F');
}
