// A handler's documented responses are the ones the runtime can send for its return type
// (SPEC §4): `svc build` on a project tree, then the built server is asked for every
// variant each handler can return, and what it answers must be in the document.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '../../compiler/build.ts';
import { emitOpenApi, readApiInfo } from '../../compiler/emit/openapi/index.ts';
import { raw, startProject } from '../support/server.ts';
import { assertValidOpenApi } from './validate.ts';

/** Each handler returns its first variant for `/a`, its second for `/b`. */
const app = await startProject({
  'package.json': JSON.stringify({ name: 'responses', version: '1.0.0', private: true, type: 'module' }),
  'routes/api.ts': [
    "import { abort, type Router } from 'svc';",
    '',
    'interface Item { id: number }',
    'const item: Item = { id: 1 };',
    '',
    'export default (router: Router) => {',
    "  router.get('/text-or-null/{v}', (v: string): string | null => (v === 'a' ? 'hi' : null));",
    "  router.get('/text-or-item/{v}', (v: string): string | Item => (v === 'a' ? 'hi' : item));",
    "  router.get('/item-or-undefined/{v}', (v: string): Item | undefined => (v === 'a' ? item : undefined));",
    "  router.get('/later-text-or-null/{v}', async (v: string): Promise<string | null> => (v === 'a' ? 'hi' : null));",
    "  router.get('/later-text-or-item/{v}', async (v: string): Promise<string | Item> => (v === 'a' ? 'hi' : item));",
    "  router.get('/later-item-or-undefined/{v}', async (v: string): Promise<Item | undefined> => (v === 'a' ? item : undefined));",
    "  router.get('/nothing/{v}', (v: string): void => void v);",
    "  router.get('/bytes-or-null/{v}', (v: string): Buffer | null => (v === 'a' ? Buffer.from('b') : null));",
    "  router.get('/number-or-null/{v}', (v: string): number | null => (v === 'a' ? 1 : null));",
    "  router.get('/buffers/{v}', (v: string): ArrayBuffer | Uint16Array => (v === 'a' ? new ArrayBuffer(2) : new Uint16Array(1)));",
    "  router.get('/blob-or-item/{v}', (v: string): Blob | Item => (v === 'a' ? new Blob(['b'], { type: 'text/plain' }) : item));",
    "  router.get('/response-or-item/{v}', (v: string): Response | Item => (v === 'a' ? new Response('gone', { status: 410 }) : item));",
    "  router.get('/flag/{v}', (v: string): boolean => v === 'a');",
    "  router.get('/fails/{v}', (v: string): never => abort(v === 'a' ? 409 : 410));",
    "  router.get('/callback/{v}', (v: string): (() => string) | symbol => (v === 'a' ? () => v : Symbol(v)));",
    "  router.get('/big/{v}', (v: string): bigint => BigInt(v.length));",
    '};',
    '',
  ].join('\n'),
});
after(() => app.close());

type Responses = Record<string, { description: string; content?: Record<string, { schema?: unknown }>; $ref?: string }>;
const text = await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8');
const document = (await assertValidOpenApi(text)) as unknown as { paths: Record<string, { get: { responses: Responses } }>; components: Record<string, any> };
const responsesOf = (route: string): Responses => document.paths[`/${route}/{v}`]!.get.responses;

/** Status → media types (a `$ref` stands as itself), so that each expectation reads on one line. */
function outline(responses: Responses): Record<string, string[] | string> {
  return Object.fromEntries(Object.entries(responses).map(([status, r]) => [status, r.$ref ?? Object.keys(r.content ?? {})]));
}

const ITEM = { $ref: '#/components/schemas/Item' };
const ok = (content: Record<string, unknown>) => ({ description: 'OK', content });
const noContent = { description: 'No content.' };

test('string | null: a 200 text/html for the string and a 204 for null, not a nullable JSON', () => {
  assert.deepEqual(responsesOf('text-or-null'), { '200': ok({ 'text/html': { schema: { type: 'string' } } }), '204': noContent });
});

test('string | object: one 200 with the string as text/html and the object as application/json', () => {
  assert.deepEqual(responsesOf('text-or-item'), { '200': ok({ 'application/json': { schema: ITEM }, 'text/html': { schema: { type: 'string' } } }) });
});

test('object | undefined: a 200 application/json and a 204', () => {
  assert.deepEqual(responsesOf('item-or-undefined'), { '200': ok({ 'application/json': { schema: ITEM } }), '204': noContent });
});

test('a Promise is documented as what it resolves to', () => {
  for (const route of ['text-or-null', 'text-or-item', 'item-or-undefined']) assert.deepEqual(responsesOf(`later-${route}`), responsesOf(route));
});

test('void, bytes, numbers and booleans', () => {
  assert.deepEqual(responsesOf('nothing'), { '204': noContent });
  assert.deepEqual(outline(responsesOf('bytes-or-null')), { '200': ['application/octet-stream'], '204': [] });
  assert.deepEqual(responsesOf('number-or-null'), { '200': ok({ 'application/json': { schema: { type: 'number' } } }), '204': noContent });
  assert.deepEqual(responsesOf('flag'), { '200': ok({ 'application/json': { schema: { type: 'boolean' } } }) });
  assert.deepEqual(outline(responsesOf('buffers')), { '200': ['application/octet-stream'] });
});

test('a Blob is a 200 of any media type: it is sent with its own', () => {
  assert.deepEqual(outline(responsesOf('blob-or-item')), { '200': ['*/*', 'application/json'] });
});

test('a Response can carry any status and media type: it is the default response, beside the data', () => {
  assert.deepEqual(outline(responsesOf('response-or-item')), { '200': ['application/json'], default: ['*/*'] });
});

test('never returns: no success is documented, only the error it throws', () => {
  assert.deepEqual(outline(responsesOf('fails')), { default: '#/components/responses/Thrown' });
  assert.deepEqual(Object.keys(document.components.responses.Thrown.content), ['application/problem+json']);
});

test('a function, a symbol or a bigint cannot be sent (the server answers 500): no success is documented for it', () => {
  assert.deepEqual(outline(responsesOf('callback')), { default: '#/components/responses/Thrown' });
  assert.deepEqual(outline(responsesOf('big')), { default: '#/components/responses/Thrown' });
});

test('every answer the built server gives is one the document describes', async () => {
  for (const [path, item] of Object.entries(document.paths)) {
    const responses = item.get.responses;
    for (const variant of ['a', 'b']) {
      const target = path.replace('{v}', variant);
      const res = await raw(app.url, target);
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
      const documented = responses[String(res.status)] ?? responses.default;
      assert.ok(documented, `${target} answered ${res.status}, which ${path} does not document`);
      const content = documented.$ref ? document.components.responses[documented.$ref.split('/').pop()!].content : documented.content;
      if (res.status === 204) assert.equal(content, undefined, `${target}: a 204 has no body`);
      else assert.ok(content[type] ?? content['*/*'], `${target} answered ${res.status} ${type}, documented as ${Object.keys(content)}`);
    }
  }
});

test('building the tree again yields the same bytes', async () => {
  const { table } = await build(app.root, { write: false });
  assert.equal(emitOpenApi(table!, await readApiInfo(app.root)), text);
});
