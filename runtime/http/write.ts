// Outgoing → the wire. HEAD gets the same headers (Content-Length included) and node
// drops the body itself.
import type { ServerResponse } from 'node:http';
import type { Outgoing } from './outgoing.ts';

export function writeOutgoing(res: ServerResponse, out: Outgoing): void {
  if (res.headersSent) {
    // The handler wrote to `ctx.res` itself; its response stands.
    if (!res.writableEnded) res.end();
    return;
  }
  const { status, headers, body } = out;
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]!);
  if (status === 204 || status === 304 || status < 200) {
    res.removeHeader('content-length');
    res.end();
  } else if (body === null) {
    res.setHeader('content-length', 0);
    res.end();
  } else {
    res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    res.end(body);
  }
}
