// A project anywhere on disk, with no node_modules of its own, builds and serves with
// this checkout's svc: the bundle finds the framework's packages, views and templates.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeFiles } from '../support/project.ts';
import { svc, svcServer, type RunningSvc } from '../support/cli.ts';

let root: string;
let served: RunningSvc;

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-outside-'));
  await writeFiles(root, {
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => 'outside');
  router.get('/users/{id}', (id: number) => ({ id }));
};
`,
  });
  const built = svc(root, ['build']);
  assert.equal(built.status, 0, built.stderr);
  served = await svcServer(root, ['serve', '--port', '0']);
});

after(async () => {
  await served?.stop();
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

test('serves routes, typed placeholders and error pages', async () => {
  assert.equal(await (await fetch(`${served.url}/`)).text(), 'outside');
  assert.deepEqual(await (await fetch(`${served.url}/users/7`)).json(), { id: 7 });
  const missing = await fetch(`${served.url}/nope`, { headers: { accept: 'text/html' } });
  assert.equal(missing.status, 404);
  assert.match(await missing.text(), /<html[\s\S]*404/);
});

test('serves the built-in dashboard and docs', async () => {
  for (const path of ['/svc/dashboard', '/svc/docs', '/svc/health']) {
    assert.equal((await fetch(`${served.url}${path}`)).status, 200, path);
  }
});
