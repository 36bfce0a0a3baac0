// Fastify 5 with its defaults (no response schema), one handler per route.
import Fastify from 'fastify';
import { announce, answerFor, colonPattern, listenPort, peerRoutes } from './routes.ts';

const app = Fastify();
for (const { method, pattern } of peerRoutes()) {
  const answer = answerFor(pattern);
  app.route({ method, url: colonPattern(pattern), handler: async (req) => answer(req.params as Record<string, string>) });
}
await app.listen({ port: listenPort(), host: '127.0.0.1' });
announce((app.server.address() as { port: number }).port);
