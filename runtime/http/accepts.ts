// Whether an `Accept` header names a media type. Media types are case-insensitive
// (RFC 9110 §8.3.1); clients send them in lower case, which is checked first.

/** `type` must be given in lower case. */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false;
  return accept.includes(type) || accept.toLowerCase().includes(type);
}
