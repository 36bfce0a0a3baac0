// `return redirect('/login')`: Laravel's `redirect()`, Hono's `c.redirect()`. A web
// `Response` with a Location, which handlers may return as it is; `Response.redirect()`
// needs an absolute URL, and a relative one is what applications mostly have.

/** The statuses that redirect (RFC 9110 §15.4): 303 turns a POST into a GET, 307 and 308 keep the method. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

const REDIRECTS: readonly number[] = [301, 302, 303, 307, 308];

export function redirect(location: string, status: RedirectStatus = 302): Response {
  if (!REDIRECTS.includes(status)) throw new RangeError(`redirect() takes a status of ${REDIRECTS.join(', ')}, got ${status}`);
  return new Response(null, { status, headers: { location: asUriReference(location) } });
}

/**
 * What a URI cannot hold as it is (RFC 3986 §2): controls, space, non-ASCII, `"<>\^`{|}`,
 * and a `%` that starts no escape. Encoding `\` matters most: browsers read `/\evil.com`
 * as `//evil.com`, another host, past an application's check that the location starts
 * with one `/` (Express's encodeurl lets `\`, `^` and `|` through).
 */
const NOT_IN_URI = /[^\x21\x23-\x3b\x3d\x3f-\x5b\x5d\x5f\x61-\x7a\x7e]|%(?![0-9A-Fa-f]{2})/gu;

/**
 * The location as a URI reference (RFC 9110 §10.2.2), as `Response.redirect()` and
 * Express write it: anything a URI cannot hold is percent-encoded as UTF-8, escapes
 * already there are kept. `/café` would otherwise go out as a Latin-1 byte, and `/日本`
 * not at all (node refuses the header: a 500).
 */
function asUriReference(location: string): string {
  return location.replace(NOT_IN_URI, (char) => (char.length === 1 && char >= '\ud800' && char <= '\udfff' ? '%EF%BF%BD' : encodeURIComponent(char)));
}
