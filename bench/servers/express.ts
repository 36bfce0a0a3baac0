// Express 5, one handler per route.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { announce, answerFor, listenPort, peerRoutes } from './routes.ts';

/** Express 5 spells an optional last placeholder `{/:name}`. */
const expressPattern = (pattern: string): string => pattern.replace(/\{([^}?]+)\}/g, ':$1').replace(/\/\{([^}?]+)\?\}$/, '{/:$1}');

const app = express();
for (const { method, pattern } of peerRoutes()) {
  const register = app[method.toLowerCase() as 'get'].bind(app);
  const answer = answerFor(pattern);
  register(expressPattern(pattern), (req, res) => void res.json(answer(req.params as Record<string, string>)));
}
const server = app.listen(listenPort(), '127.0.0.1', () => announce((server.address() as AddressInfo).port));
