// The ceiling's request listener: the two bench routes matched by hand, no router at all.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { payload, STATIC_PATH } from './payload.ts';

// With its length, as every other server sends it: without one node would frame the body chunked.
const json = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
};

export function bareListener(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  if (path === STATIC_PATH) return json(res, 200, payload);
  const parts = path.split('/');
  if (parts.length === 5 && parts[1] === 'users' && parts[3] === 'posts' && parts[2] && parts[4]) return json(res, 200, { id: parts[2], postId: parts[4] });
  json(res, 404, { error: 'Not Found' });
}
