// `svc serve --workers 2` when a worker dies while serving: the primary starts another,
// says so in svc.log, and a later SIGTERM is still a clean stop (exit 0), as it would be
// without the crash.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
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
