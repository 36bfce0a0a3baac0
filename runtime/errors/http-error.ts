// Deliberate error responses: `throw new HttpError(404, 'No such user')` or
// `abort(403, 'Admins only')` anywhere in a handler or middleware.
import type { HeaderValue } from '../http/outgoing.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    /** Shown to the client as the problem's `detail` (for a 500 only under `svc tread`). */
    readonly detail?: string,
    /** Extra response headers, e.g. `{ 'WWW-Authenticate': 'Bearer' }` or `{ 'Retry-After': 30 }`. */
    readonly headers: Readonly<Record<string, HeaderValue>> = {},
  ) {
    super(detail ?? `HTTP ${status}`);
    this.name = 'HttpError';
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${status}`);
    }
  }
}

export function abort(status: number, detail?: string, headers?: Record<string, HeaderValue>): never {
  throw new HttpError(status, detail, headers);
}
