// Issue 8: SIGTERM/SIGINT to `svc serve` stop new connections at once, let requests in
// flight finish within `server.shutdownGraceMs`, close idle keep-alive connections,
// flush svc.log and the metrics, and exit 0 (1 when the grace period had to cut requests).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { constants } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { eventually } from '../support/cli.ts';
import { raw } from '../support/server.ts';
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

/**
 * Resolves once `signal` sent to `pid` is no longer pending in the kernel (it reached the
 * process's handler; read from /proc/PID/status), or, without /proc, once `heard()`.
 */
async function delivered(pid: number, signal: NodeJS.Signals, heard: () => boolean): Promise<void> {
  const bit = 1n << BigInt(constants.signals[signal] - 1);
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      if (heard()) return;
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    const pending = [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].reduce((all, [, mask]) => all | BigInt(`0x${mask}`), 0n);
    if ((pending & bit) === 0n) return;
  }
  throw new Error(`${signal} still pending for ${pid} after 5 s`);
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

  it('closes a connection that never sent a request at once, and holds a slow one to its headersTimeout', async () => {
    const app = await serveApp({ shutdownGraceMs: 8000, headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
    try {
      const { hostname, port } = new URL(app.svc.url);
      const silent = connect(Number(port), hostname).on('error', () => {});
      const dribbling = connect(Number(port), hostname).on('error', () => {});
      let answered = '';
      dribbling.setEncoding('latin1').on('data', (chunk: string) => (answered += chunk));
      await new Promise((resolve) => dribbling.once('connect', resolve));
      dribbling.write('GET /users/1 HTTP/1.1\r\nhost: 127.0.0.1\r\n'); // and never the blank line
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = exitCode(app.svc);
      const asked = performance.now();
      app.svc.child.kill('SIGTERM');
      await new Promise((resolve) => silent.once('close', resolve));
      assert.ok(performance.now() - asked < 1000, 'the silent connection was closed within a second');
      assert.equal(await exited, 0);
      const took = performance.now() - asked;
      assert.ok(took < 4000, `exited ${Math.round(took)} ms after SIGTERM: the slow client's headersTimeout (1 s) still applied`);
      assert.match(answered, /^HTTP\/1\.1 408 /);
    } finally {
      await app.close();
    }
  });

  it('an answer in flight at SIGTERM says Connection: close, as its connection then closes', async () => {
    const app = await serveApp({ shutdownGraceMs: 5000 });
    try {
      const answer = raw(app.svc.url, '/slow?ms=800');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = exitCode(app.svc);
      app.svc.child.kill('SIGTERM');
      const { status, headers } = await answer;
      assert.equal(status, 200);
      assert.equal(headers['connection'], 'close');
      assert.equal(await exited, 0);
    } finally {
      await app.close();
    }
  });

  it('a second signal exits at once, yet writes the counts and log lines it holds', async () => {
    const app = await serveApp({ shutdownGraceMs: 5000 });
    try {
      for (let i = 0; i < 5; i++) assert.equal((await fetch(`${app.svc.url}/users/${i}`)).status, 200);
      assert.equal((await fetch(`${app.svc.url}/missing-before-the-second-signal`)).status, 404);
      void fetch(`${app.svc.url}/slow?ms=5000`).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = exitCode(app.svc);
      app.svc.child.kill('SIGTERM');
      await eventually(async () => app.svc.output().includes('SIGTERM: finishing requests in flight'), 5000);
      app.svc.child.kill('SIGTERM');
      assert.equal(await exited, 1);
      const saved = JSON.parse(await readFile(join(app.root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ method: string; path: string; hits: number }> };
      assert.equal(saved.routes.find((route) => route.path === '/users/{id}')?.hits, 5);
      assert.match(await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8'), /GET \/missing-before-the-second-signal 404/);
    } finally {
      await app.close();
    }
  });

  // `npm start` passes a SIGINT or SIGTERM it receives on to its script (npm's run-script),
  // and a Ctrl-C, or a stop sent to the process group, reaches the server itself too: one
  // request to stop arrives twice, under a millisecond apart. The copy is sent here once the
  // first has left the kernel's pending set, so that the two cannot be merged into one.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`the same ${signal} passed on by a parent right behind it is one request to stop: the request in flight finishes, exit 0`, async () => {
      const app = await serveApp({ shutdownGraceMs: 5000 });
      try {
        const { url, child } = app.svc;
        const slow = fetch(`${url}/slow?ms=1000`).then(
          async (res) => (await res.json()) as unknown,
          () => 'cut',
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        const exited = exitCode(app.svc);
        child.kill(signal);
        await delivered(child.pid!, signal, () => app.svc.output().includes(`${signal}: finishing requests in flight`));
        child.kill(signal);
        assert.deepEqual(await slow, { waited: 1000 });
        assert.equal(await exited, 0);
        assert.doesNotMatch(app.svc.output(), /again; exiting/);
      } finally {
        await app.close();
      }
    });
  }

  it('a handler that ends the process: the counts and log lines it held are written', async () => {
    const app = await serveApp();
    try {
      for (let i = 0; i < 5; i++) assert.equal((await fetch(`${app.svc.url}/users/${i}`)).status, 200);
      assert.equal((await fetch(`${app.svc.url}/missing-before-exit`)).status, 404);
      const exited = exitCode(app.svc);
      await fetch(`${app.svc.url}/exit`).catch(() => {});
      assert.equal(await exited, 3);
      const saved = JSON.parse(await readFile(join(app.root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ method: string; path: string; hits: number }> };
      assert.equal(saved.routes.find((route) => route.path === '/users/{id}')?.hits, 5);
      assert.match(await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8'), /GET \/missing-before-exit 404/);
    } finally {
      await app.close();
    }
  });

  it('an exception nothing caught ends the process with a line in svc.log that says what it was', async () => {
    const app = await serveApp();
    try {
      assert.equal((await fetch(`${app.svc.url}/users/1`)).status, 200);
      const exited = exitCode(app.svc);
      assert.equal(await (await fetch(`${app.svc.url}/crash`)).text(), 'soon');
      assert.equal(await exited, 1);
      const log = await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8');
      assert.match(log, /\[uncaughtException\] An exception nothing caught ended the process: TypeError: the timer broke \{"error":\{"name":"TypeError"/);
      const saved = JSON.parse(await readFile(join(app.root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ path: string; hits: number }> };
      assert.equal(saved.routes.find((route) => route.path === '/users/{id}')?.hits, 1);
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
