// Issue 8: SIGTERM/SIGINT to `svc serve` stop new connections at once, let requests in
// flight finish within `server.shutdownGraceMs`, close idle keep-alive connections,
// flush svc.log and the metrics, and exit 0 (1 when the grace period had to cut requests).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from '../support/cli.ts';
import { exitCode, serveApp } from './support.ts';

/** A raw keep-alive connection that has had one answer and now sits idle; resolves `closed` when the server drops it. */
async function idleConnection(url: string): Promise<{ socket: Socket; closed: Promise<number> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  await new Promise<void>((resolve) => {
    socket.once('data', () => resolve());
    socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  });
  return { socket, closed };
}

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

describe('graceful shutdown', () => {
  it('on SIGTERM finishes the request in flight, refuses new connections, closes idle ones, flushes and exits 0', async () => {
    const app = await serveApp({ shutdownGraceMs: 5000 });
    try {
      const { url, child } = app.svc;
      assert.equal((await fetch(`${url}/users/1`)).status, 200);
      assert.equal((await fetch(`${url}/missing-before-shutdown`)).status, 404);
      const idle = await idleConnection(url);

      const slow = fetch(`${url}/slow?ms=1000`).then(async (res) => ({ status: res.status, body: await res.json(), at: performance.now() }));
      // The request is in flight once it reached the handler; the route waits a full second from there.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = exitCode(app.svc);
      child.kill('SIGTERM');
      await eventually(async () => app.svc.output().includes('SIGTERM: finishing requests in flight'), 5000);

      assert.equal(await refused(url), true, 'a new connection is refused while draining');
      const answer = await slow;
      assert.deepEqual({ status: answer.status, body: answer.body }, { status: 200, body: { waited: 1000 } });
      assert.ok((await idle.closed) < answer.at, 'the idle keep-alive connection was closed before the slow request finished');
      assert.equal(await exited, 0);

      const log = await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8');
      assert.match(log, /\[404\] GET \/missing-before-shutdown 404/);
      const saved = JSON.parse(await readFile(join(app.root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ method: string; path: string; hits: number }> };
      const hits = Object.fromEntries(saved.routes.map((route) => [`${route.method} ${route.path}`, route.hits]));
      assert.equal(hits['GET /users/{id}'], 1);
      assert.equal(hits['GET /slow'], 1, 'the request finished during the drain is counted');
    } finally {
      await app.close();
    }
  });

  it('exits on SIGTERM even when the application keeps a timer running', async () => {
    const app = await serveApp();
    try {
      assert.equal(await (await fetch(`${app.svc.url}/heartbeat`)).text(), 'beating');
      const exited = exitCode(app.svc);
      const asked = performance.now();
      app.svc.child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.ok(performance.now() - asked < 5000, 'exited within seconds');
    } finally {
      await app.close();
    }
  });

  it('on SIGINT cuts requests still running after shutdownGraceMs and exits 1', async () => {
    const app = await serveApp({ shutdownGraceMs: 300 });
    try {
      const { url, child } = app.svc;
      const slow = fetch(`${url}/slow?ms=5000`).then(
        () => 'answered',
        () => 'cut',
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = exitCode(app.svc);
      child.kill('SIGINT');
      assert.equal(await slow, 'cut');
      assert.equal(await exited, 1);
      assert.match(app.svc.output(), /requests still running after 300 ms were cut off/);
    } finally {
      await app.close();
    }
  });
});
