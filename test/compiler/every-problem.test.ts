import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeProject, removeProject } from '../support/project.ts';
import { svc } from '../support/cli.ts';

const roots: string[] = [];
after(() => Promise.all(roots.map(removeProject)));

test('a broken svc.json does not hide the route files’ problems', async () => {
  const root = await makeProject({
    'svc.json': '{ "server": { "port": 1 }, }\n',
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/a/{id}', () => 'no parameter');
};
`,
  });
  roots.push(root);
  const result = svc(root, ['build']);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^svc\.json:\d+:\d+ - error SVC007: /m);
  assert.match(result.stderr, /^routes\/web\.ts:3:25 - error SVC003: /m);
});

test('extra slashes at either end of a pattern are empty segments (SVC005)', async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('//b', () => 'b');
  router.get('/users//', () => 'users');
  router.get('/fine/', () => 'one trailing slash is dropped');
};
`,
  });
  roots.push(root);
  const result = svc(root, ['build']);
  assert.equal(result.status, 1);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[0]!, /^routes\/web\.ts:3:14 - error SVC005: invalid pattern '\/\/b': it has an empty segment/);
  assert.match(lines[1]!, /^routes\/web\.ts:4:14 - error SVC005: invalid pattern '\/users\/\/': it has an empty segment/);
});
