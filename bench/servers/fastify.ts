// The Fastify server of the HTTP and start-up benches.
import { fastifyApp } from './fastify-app.ts';
import { announce, listenPort, peerRoutes } from './routes.ts';

const app = fastifyApp(peerRoutes());
await app.listen({ port: listenPort(), host: '127.0.0.1' });
announce((app.server.address() as { port: number }).port);
