// RFC 9112 §3.2: a request with more than one Host field line, or one whose value is no
// host, gets 400, like an HTTP/1.1 request with none. Node keeps only the first in
// `req.headers`, so a proxy in front that reads the last one and svc would disagree about
// which site was asked for; node checks no value at all.

/** How many Host field lines the request carries. */
export function hostFieldCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/**
 * `uri-host [ ":" port ]` (RFC 3986 §3.2.2): an IP literal in brackets, or a name of
 * unreserved characters, percent-escapes and sub-delims; no space, `/`, `@` or quote.
 * Empty is allowed (RFC 9112 §3.2: a target without authority sends an empty Host).
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/** The last value found valid: a client sends the same Host on every request. */
let lastValid = '';

export function validHost(host: string): boolean {
  if (host === lastValid) return true;
  if (!HOST_VALUE.test(host)) return false;
  lastValid = host;
  return true;
}
