// The hot path: a route without middleware whose handler returns a string synchronously
// is answered without creating a single promise.
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { it } from 'node:test';
import { createHandler } from '../../runtime/server/index.ts';
import { handApp } from '../support/hand-app.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { raw } from '../support/server.ts';

it('serves a synchronous string handler without creating promises', async () => {
  const root = await makeProject({});
  const handler = await createHandler(
    handApp([
      { method: 'GET', pattern: '/users/{id}', handler: (id: string) => `user ${id}` },
      { method: 'GET', pattern: '/later', handler: async () => 'later' },
    ]),
    { root },
  );
  let promises = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) });
  const counts: Record<string, number> = {};
  const server = createServer((req, res) => {
    promises = 0;
    hook.enable();
    handler.handle(req, res);
    hook.disable();
    counts[req.url!] = promises;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.equal((await raw(url, '/users/7')).body, 'user 7');
    assert.equal((await raw(url, '/later')).body, 'later');
    assert.equal(counts['/users/7'], 0);
    assert.ok(counts['/later']! > 0, 'the hook does see promises');
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await handler.close();
    await removeProject(root);
  }
});
