// Typed placeholders end to end: `svc build` documents them in .svc/openapi.json and the
// built application converts and enforces them at request time.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { raw, startProject } from '../support/server.ts';
import { assertValidOpenApi } from './validate.ts';

const app = await startProject({
  'package.json': JSON.stringify({ name: 'typed-params', version: '2.0.0', private: true, type: 'module' }),
  'routes/api.ts': [
    "import type { Router } from 'svc';",
    '',
    'export default (router: Router) => {',
    '  router.get(\'/users/{id}\', (id: number) => ({ id, type: typeof id }));',
    "  router.get('/posts/{state}', (state: 'draft' | 'published') => ({ state }));",
    '};',
    '',
  ].join('\n'),
});
after(() => app.close());

test('a number placeholder that is not a number gets 400 problem+json naming it', async () => {
  const res = await raw(app.url, '/users/abc');
  assert.equal(res.status, 400);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const problem = JSON.parse(res.body) as { status: number; detail: string };
  assert.equal(problem.status, 400);
  assert.match(problem.detail, /\bid\b/);
});

test('a number placeholder reaches the handler as a number', async () => {
  const res = await raw(app.url, '/users/12');
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.body), { id: 12, type: 'number' });
});

test('a string-literal placeholder accepts its values only', async () => {
  assert.deepEqual(JSON.parse((await raw(app.url, '/posts/draft')).body), { state: 'draft' });
  const res = await raw(app.url, '/posts/archived');
  assert.equal(res.status, 400);
  assert.match((JSON.parse(res.body) as { detail: string }).detail, /\bstate\b/);
});

test('svc build writes .svc/openapi.json with the typed placeholders and the package info', async () => {
  const document = (await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'))) as unknown as {
    info: unknown;
    paths: Record<string, { get: { parameters: unknown[] } }>;
  };
  assert.deepEqual(document.info, { title: 'typed-params', version: '2.0.0' });
  assert.deepEqual(document.paths['/users/{id}']!.get.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }]);
  assert.deepEqual(document.paths['/posts/{state}']!.get.parameters, [
    { name: 'state', in: 'path', required: true, schema: { type: 'string', enum: ['draft', 'published'] } },
  ]);
});
