// The ceiling: node:http with the two bench routes matched by hand, no router at all.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { payload, STATIC_PATH } from './payload.ts';
import { announce, listenPort } from './routes.ts';

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};

const server = createServer((req, res) => {
  const path = req.url ?? '/';
  if (path === STATIC_PATH) return json(res, 200, payload);
  const parts = path.split('/');
  if (parts.length === 5 && parts[1] === 'users' && parts[3] === 'posts' && parts[2] && parts[4]) return json(res, 200, { id: parts[2], postId: parts[4] });
  json(res, 404, { error: 'Not Found' });
});
server.listen(listenPort(), '127.0.0.1', () => announce((server.address() as AddressInfo).port));
