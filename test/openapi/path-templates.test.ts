import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { emitOpenApi } from '../../compiler/emit/openapi/index.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

let root: string;
after(() => removeProject(root));

test('routes of one shape share one path template, named after the first registration', async () => {
  root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/users/{id}', (id: string) => ({ id }));
  router.post('/users/{name}', (name: string) => ({ name }));
  router.delete('/users/{userId}/posts/{postId}', (userId: string, postId: string) => null);
  router.get('/users/{a}/posts/{b}', (a: string, b: string) => ({ a, b }));
};
`,
  });
  const { table } = await build(root, { write: false });
  const document = await assertValidOpenApi(emitOpenApi(table!));
  assert.deepEqual(Object.keys(document.paths).sort(), ['/users/{id}', '/users/{userId}/posts/{postId}']);
  const post = document.paths['/users/{id}']!.post as unknown as { parameters: Array<{ name: string }> };
  assert.deepEqual(post.parameters.map((p) => p.name), ['id']);
  const get = document.paths['/users/{userId}/posts/{postId}']!.get as unknown as { parameters: Array<{ name: string }> };
  assert.deepEqual(get.parameters.map((p) => p.name), ['userId', 'postId']);
});
