// `svc serve --workers 2` when a worker dies while serving: the primary starts another,
// says so in svc.log, keeps what the worker counted, and a later SIGTERM is still a clean
// stop (exit 0), as it would be without the crash.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/cli.ts';
import { raw } from '../support/server.ts';
import { exitCode, serveApp, type Served } from './support.ts';

let app: Served;
before(async () => {
  app = await serveApp({}, ['--workers', '2']);
});
after(() => app?.close());

/** The pids that answer 20 requests, each on a fresh connection so that both workers get some. */
async function answering(): Promise<Set<number>> {
  const pids = await Promise.all(Array.from({ length: 20 }, async () => (JSON.parse((await raw(app.svc.url, '/pid', { headers: { connection: 'close' } })).body) as { pid: number }).pid));
  return new Set(pids);
}

/** The route's hits as the metrics endpoint reports them. */
async function hits(path: string): Promise<number | undefined> {
  const response = await fetch(`${app.svc.url}/svc/metrics`, { headers: { accept: 'application/json' } });
  const { routes } = (await response.json()) as { routes: Array<{ path: string; hits: number }> };
  return routes.find((route) => route.path === path)?.hits;
}

describe('svc serve --workers 2, a worker that ends itself', () => {
  it('in a handler: what it counted, unreported yet, still reaches the primary', async () => {
    // One connection, so one worker answers every request, the last of which ends it.
    const { hostname, port } = new URL(app.svc.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {}).resume(); // read, or the close is never seen
    const requests = Array.from({ length: 20 }, (_, i) => `GET /users/${i} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`).join('');
    socket.write(`${requests}GET /exit HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
    await new Promise((resolve) => socket.once('close', resolve));
    // Once the primary has seen it go, no connection is handed to it any more (see below).
    await eventually(async () => /worker \d+ exited with code 3; starting another/.test(await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8')));
    await eventually(async () => (await hits('/users/{id}')) === 20);
    // Its replacement serves before the next test kills a worker: with both gone at once,
    // node:cluster would close the port, and `--port 0` would pick another.
    await eventually(async () => (await answering()).size === 2);
  });
});

describe('svc serve --workers 2, a worker killed', () => {
  it('is replaced, and SIGTERM afterwards still exits 0', async () => {
    const [victim] = await answering();
    process.kill(victim!, 'SIGKILL');
    // Only once the primary has seen the death: a connection it hands the dead worker before
    // then is never answered (node:cluster's round-robin keeps it open).
    const said = `[cluster] worker ${victim} exited with signal SIGKILL; starting another`;
    await eventually(async () => (await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8')).includes(said));
    await eventually(async () => {
      const pids = await answering();
      return pids.size === 2 && !pids.has(victim!);
    });

    const exited = exitCode(app.svc);
    app.svc.child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
