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
    "import { Items, Sorted } from '../weave/Controllers/Items.ts';",
    '',
    'export default (router: Router) => {',
    '  router.get(\'/users/{id}\', (id: number) => ({ id, type: typeof id }));',
    "  router.get('/posts/{state}', (state: 'draft' | 'published') => ({ state }));",
    "  router.get('/flags/{on}', (on: true) => ({ on }));",
    "  router.get('/items/{id}', [Items, 'show']);",
    "  router.get('/sorted/{order}', [Sorted, 'show']);",
    '};',
    '',
  ].join('\n'),
  // A base class's type parameters, given by each subclass: the placeholder is what the subclass says.
  'weave/Controllers/Resource.ts': [
    'export class Resource<K, R> {',
    '  show(id: K): { id: K; type: string; row: R | null } {',
    '    return { id, type: typeof id, row: null };',
    '  }',
    '}',
    '',
  ].join('\n'),
  'weave/Controllers/Items.ts': [
    "import { Resource } from './Resource.ts';",
    '',
    'interface Item {',
    '  sku: string;',
    '}',
    'export class Items extends Resource<number, Item> {}',
    "export class Sorted extends Resource<'asc' | 'desc', Item> {}",
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

test('a `true` placeholder takes true only, a `false` one false only', async () => {
  assert.deepEqual(JSON.parse((await raw(app.url, '/flags/true')).body), { on: true });
  const res = await raw(app.url, '/flags/false');
  assert.equal(res.status, 400);
  assert.match((JSON.parse(res.body) as { detail: string }).detail, /\bon\b.*one of true/);
});

test("a method inherited from a generic base class takes the placeholder type its subclass gives", async () => {
  assert.deepEqual(JSON.parse((await raw(app.url, '/items/12')).body), { id: 12, type: 'number', row: null });
  assert.equal((await raw(app.url, '/items/abc')).status, 400);
  assert.deepEqual(JSON.parse((await raw(app.url, '/sorted/asc')).body), { id: 'asc', type: 'string', row: null });
  assert.equal((await raw(app.url, '/sorted/up')).status, 400);
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
  assert.deepEqual(document.paths['/flags/{on}']!.get.parameters, [{ name: 'on', in: 'path', required: true, schema: { type: 'boolean', enum: [true] } }]);
  assert.deepEqual(document.paths['/sorted/{order}']!.get.parameters, [
    { name: 'order', in: 'path', required: true, schema: { type: 'string', enum: ['asc', 'desc'] } },
  ]);
  const items = document.paths['/items/{id}']!.get as unknown as { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
  assert.deepEqual(items.responses['200']!.content['application/json']!.schema, {
    type: 'object',
    properties: { id: { type: 'number' }, type: { type: 'string' }, row: { anyOf: [{ $ref: '#/components/schemas/Item' }, { type: 'null' }] } },
    required: ['id', 'type', 'row'],
  });
});
