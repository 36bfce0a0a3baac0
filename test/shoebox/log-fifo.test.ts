// svc.log as a FIFO (a log shipper reads it), through the real `svc serve`. Appending
// opened it and waited, in a thread of Node's pool, for a reader; with none, SIGTERM
// never ended the process (Node's exit waits for those threads). It is now opened
// without waiting: with no reader, or a reader that stops taking lines, they go to
// stderr, said once; with a reader, they reach it.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, svcServer, type RunningSvc } from '../support/cli.ts';
import { removeProject } from '../support/project.ts';
import { buildProject, get } from '../endpoints/support.ts';

/** Stops the server; fails rather than waiting for good. */
async function stopWithin(server: RunningSvc, ms: number): Promise<number | null> {
  const stopped = server.stop().then(() => server.child.exitCode);
  const timer = new Promise<'hung'>((resolve) => setTimeout(resolve, ms, 'hung').unref());
  const outcome = await Promise.race([stopped, timer]);
  if (outcome === 'hung') {
    server.child.kill('SIGKILL');
    assert.fail(`svc serve did not exit within ${ms} ms of SIGTERM:\n${server.output()}`);
  }
  return outcome;
}

describe('svc.log as a FIFO', { skip: process.platform === 'win32' }, () => {
  let root: string;
  let fifo: string;
  before(async () => {
    root = await buildProject();
    await mkdir(join(root, 'shoebox', 'logs'), { recursive: true });
    fifo = join(root, 'shoebox', 'logs', 'svc.log');
    execFileSync('mkfifo', [fifo]);
  });
  after(() => removeProject(root));

  it('with no reader: lines go to stderr, and SIGTERM still ends the server', async () => {
    const server = await svcServer(root, ['serve', '--port', '0']);
    for (let i = 0; i < 5; i++) assert.equal((await get(`${server.url}/missing/${i}`)).status, 404);
    await eventually(async () => server.output().includes('GET /missing/4 404'));
    assert.equal(await stopWithin(server, 20_000), 0);
    assert.match(server.output(), /svc: cannot write .*svc\.log: it is a FIFO that no process reads; its lines go to stderr until it can be written/);
  });

  it('with a reader: every line reaches it', async () => {
    // Opened for reading and writing, as a log shipper opens it: svc closes the FIFO after
    // each batch, and a reader that alone holds it open would see the end of the stream.
    const reader = spawn('bash', ['-c', `exec cat 0<>'${fifo}'`]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk));
    const server = await svcServer(root, ['serve', '--port', '0']);
    for (let i = 0; i < 5; i++) await get(`${server.url}/read/${i}`);
    await eventually(async () => read.includes('GET /read/4 404'));
    assert.equal(await stopWithin(server, 20_000), 0);
    assert.doesNotMatch(server.output(), /cannot write/);
    reader.kill();
  });

  it('with a reader that stops reading: lines go to stderr once the pipe has been full for 3 s', async () => {
    // Holds the FIFO open for reading and never reads: the pipe fills and stays full.
    const reader = spawn('bash', ['-c', `exec 3<'${fifo}'; sleep 60`]);
    const server = await svcServer(root, ['serve', '--port', '0']);
    const long = 'x'.repeat(1000);
    for (let i = 0; i < 150; i++) await get(`${server.url}/full/${i}/${long}`); // 150 KB of lines, the pipe takes 64
    await eventually(async () => server.output().includes('GET /full/149/'), 20_000);
    assert.match(server.output(), /svc: cannot write .*svc\.log: the process reading it has taken nothing for 3 s/);
    assert.equal(await stopWithin(server, 20_000), 0);
    reader.kill();
  });
});
