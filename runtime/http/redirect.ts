// `return redirect('/login')`: Laravel's `redirect()`, Hono's `c.redirect()`. A web
// `Response` with a Location, which handlers may return as it is; `Response.redirect()`
// needs an absolute URL, and a relative one is what applications mostly have.

/** The statuses that redirect (RFC 9110 §15.4): 303 turns a POST into a GET, 307 and 308 keep the method. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

const REDIRECTS: readonly number[] = [301, 302, 303, 307, 308];

export function redirect(location: string, status: RedirectStatus = 302): Response {
  if (!REDIRECTS.includes(status)) throw new RangeError(`redirect() takes a status of ${REDIRECTS.join(', ')}, got ${status}`);
  return new Response(null, { status, headers: { location } });
}
