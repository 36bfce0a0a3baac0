// The ceiling: node:http with the two bench routes matched by hand, no router at all.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bareListener } from './bare-listener.ts';
import { announce, listenPort } from './routes.ts';

const server = createServer(bareListener);
server.listen(listenPort(), '127.0.0.1', () => announce((server.address() as AddressInfo).port));
