// Hono with its default (SmartRouter) router, one handler per route.
import { Hono } from 'hono';
import { answerFor, colonPattern, type PeerRoute } from './routes.ts';

export function honoApp(routes: PeerRoute[]): Hono {
  const app = new Hono();
  for (const { method, pattern } of routes) {
    const answer = answerFor(pattern);
    app.on(method, colonPattern(pattern), (c) => c.json(answer(c.req.param()) as object));
  }
  return app;
}
