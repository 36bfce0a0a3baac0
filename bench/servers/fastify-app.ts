// Fastify 5 with its defaults (no response schema), one handler per route.
import Fastify, { type FastifyInstance } from 'fastify';
import { answerFor, colonPattern, type PeerRoute } from './routes.ts';

export function fastifyApp(routes: PeerRoute[]): FastifyInstance {
  const app = Fastify();
  for (const { method, pattern } of routes) {
    const answer = answerFor(pattern);
    app.route({ method, url: colonPattern(pattern), handler: async (req) => answer(req.params as Record<string, string>) });
  }
  return app;
}
