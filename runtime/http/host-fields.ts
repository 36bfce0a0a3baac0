// RFC 9112 §3.2: a request with more than one Host field line gets 400, like an HTTP/1.1
// request with none. Node keeps only the first in `req.headers`, so a proxy in front that
// reads the last one and svc would disagree about which site was asked for.

/** How many Host field lines the request carries. */
export function hostFieldCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}
