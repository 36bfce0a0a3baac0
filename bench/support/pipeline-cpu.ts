// CPU time per request of request listeners alone, for before/after comparisons of the
// runtime that the HTTP bench cannot resolve on a shared machine (its CPU column moves
// by ±10% with other work; this by a few %). Each listener gets real IncomingMessage
// and ServerResponse objects over a socket that swallows what is written, so the
// kernel, the HTTP parser and the load generator are left out, and the listeners take
// turns in chunks of requests, so that they share whatever else the machine is doing.
//
//   node --import tsx bench/support/pipeline-cpu.ts <path> [rounds] [fastify] [hono] <label>=<project>…
//
// `bare` is always measured (bench/servers/bare-listener.ts); `fastify` and `hono` add
// the HTTP bench's peers (bench/servers/*-app.ts, the same two routes); each <project> is
// a built svc project (its .svc/app.mjs, e.g. test/.tmp/bench/http after `npm run
// bench:http`, or the same project built by another checkout). Listeners loaded first
// tend to come out a few % faster: run twice with the order swapped before trusting a
// small difference.
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { bareListener } from '../servers/bare-listener.ts';
import { fastifyApp } from '../servers/fastify-app.ts';
import { honoApp } from '../servers/hono-app.ts';
import { peerRoutes } from '../servers/routes.ts';
import { median } from './report.ts';

const [path = '/', rounds = '9', ...projects] = process.argv.slice(2);
const PER_ROUND = 100_000;
const CHUNK = 5_000;
/** Requests answered per turn of the event loop, as pipelined connections deliver them. */
const BATCH = 500;

/** Takes whatever a response writes, with the peer address a listener reads. */
class Sink extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly remotePort = 40000;

  constructor() {
    super({ decodeStrings: false });
  }

  override _read(): void {}

  override _write(_chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    done();
  }

  override _writev(_chunks: unknown[], done: () => void): void {
    done();
  }

  setTimeout(): this {
    return this;
  }
}

const listeners: Array<[label: string, listener: RequestListener]> = [['bare', bareListener]];
for (const spec of projects) listeners.push([spec.split('=')[0]!, await listenerFor(spec)]);

async function listenerFor(spec: string): Promise<RequestListener> {
  if (spec === 'fastify') {
    const app = fastifyApp(peerRoutes([]));
    await app.ready();
    return app.server.listeners('request')[0] as RequestListener;
  }
  if (spec === 'hono') return getRequestListener(honoApp(peerRoutes([])).fetch) as unknown as RequestListener;
  const [label, folder] = spec.split('=');
  if (!label || !folder) throw new Error(`expected fastify, hono or <label>=<project folder>, got ${spec}`);
  const root = resolve(folder);
  const app = (await import(pathToFileURL(join(root, '.svc', 'app.mjs')).href)) as { handler(options: { root: string }): Promise<{ handle: RequestListener }> };
  return (await app.handler({ root })).handle;
}

// Node only reads and writes through the stream side of a socket here.
const sockets = Array.from({ length: BATCH }, () => new Sink() as unknown as Socket);
const statuses = new Map<string, Set<number>>();

function request(label: string, listener: RequestListener, socket: Socket): void {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = `${path}`; // a fresh string, as the parser's is
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.rawHeaders = ['Host', 'localhost:40000', 'Connection', 'keep-alive']; // what autocannon sends
  // Node builds this object for every request (it reads Host and Expect before any listener runs).
  req.headers = { host: 'localhost:40000', connection: 'keep-alive' };
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    statuses.get(label)!.add(res.statusCode);
  });
  listener(req, res);
}

async function run(label: string, listener: RequestListener, count: number): Promise<void> {
  for (let done = 0; done < count; done += BATCH) {
    for (const socket of sockets) request(label, listener, socket);
    await new Promise((next) => setImmediate(next));
  }
}

for (const [label, listener] of listeners) {
  statuses.set(label, new Set());
  await run(label, listener, 50_000); // warm-up
}
const perRound = new Map<string, number[]>(listeners.map(([label]) => [label, []]));
for (let round = 0; round < Number(rounds); round++) {
  const spent = new Map<string, number>(listeners.map(([label]) => [label, 0]));
  for (let chunk = 0; chunk < PER_ROUND / CHUNK; chunk++) {
    for (let i = 0; i < listeners.length; i++) {
      const [label, listener] = listeners[(i + chunk) % listeners.length]!;
      const before = process.cpuUsage();
      await run(label, listener, CHUNK);
      const used = process.cpuUsage(before);
      spent.set(label, spent.get(label)! + used.user + used.system);
    }
  }
  for (const [label, micros] of spent) perRound.get(label)!.push(micros / PER_ROUND);
}

const bare = perRound.get('bare')!;
console.log(`GET ${path}: CPU µs per request (process user + system), median of ${rounds} rounds of ${PER_ROUND.toLocaleString('en-US')}`);
for (const [label, values] of perRound) {
  const over = median(values.map((v, round) => v - bare[round]!));
  console.log(`${label.padEnd(12)} ${median(values).toFixed(3)}  over bare ${over.toFixed(3)}  statuses ${[...statuses.get(label)!].join(',')}`);
}
const [first, ...others] = listeners.slice(1).map(([label]) => label);
for (const other of others) {
  const a = perRound.get(first!)!;
  const b = perRound.get(other)!;
  console.log(`${first} ÷ ${other}: ${median(a.map((v, round) => v / b[round]!)).toFixed(3)} (median of per-round ratios)`);
}
process.exit(0); // the listeners' log and metrics timers would keep the process alive
