// Hono on @hono/node-server, its default (SmartRouter) router.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { announce, answerFor, colonPattern, listenPort, peerRoutes } from './routes.ts';

const app = new Hono();
for (const { method, pattern } of peerRoutes()) {
  const answer = answerFor(pattern);
  app.on(method, colonPattern(pattern), (c) => c.json(answer(c.req.param()) as object));
}
serve({ fetch: app.fetch, port: listenPort(), hostname: '127.0.0.1' }, (info) => announce(info.port));
