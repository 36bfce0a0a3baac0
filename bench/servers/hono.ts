// The Hono server of the HTTP and start-up benches, on @hono/node-server.
import { serve } from '@hono/node-server';
import { honoApp } from './hono-app.ts';
import { announce, listenPort, peerRoutes } from './routes.ts';

const app = honoApp(peerRoutes());
serve({ fetch: app.fetch, port: listenPort(), hostname: '127.0.0.1' }, (info) => announce(info.port));
