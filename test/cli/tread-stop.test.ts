// Stopping `svc tread` stops the process that serves, even one a handler has stuck in an
// endless loop: it never runs its signal handler, and would be left holding the port.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, test } from 'node:test';
import { makeProject, removeProject } from '../support/project.ts';
import { svcServer } from '../support/cli.ts';

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

test('SIGTERM ends tread and its server process, even one stuck in a handler', async (t) => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => 'up');
  router.get('/spin', () => { for (;;) {} });
};
`,
  });
  roots.push(root);
  const tread = await svcServer(root, ['tread', '--port', '0']);
  const port = Number(new URL(tread.url).port);
  assert.equal(await (await fetch(tread.url)).text(), 'up');
  const spinning = new AbortController();
  fetch(`${tread.url}/spin`, { signal: spinning.signal }).catch(() => {}); // never answered
  t.after(() => spinning.abort());
  await new Promise((resolve) => setTimeout(resolve, 300));
  const exited = new Promise<number | null>((resolve) => tread.child.once('exit', resolve));
  tread.child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.ok(await refused(port), 'the port is still held: the server process outlived tread');
});
