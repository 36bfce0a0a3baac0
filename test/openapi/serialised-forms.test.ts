// Values whose JSON is not their declared properties (lib.d.ts and @types/node declare
// getters such as `Map#size` and `ReadableStream#locked` as properties): what the built server sends for them must validate against
// the schema the document gives.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { raw, startProject } from '../support/server.ts';
import { assertAnswersMatchSchemas, assertValidOpenApi } from './validate.ts';

const app = await startProject({
  'routes/api.ts': `import type { Router } from 'svc';
const key = Symbol('key');
class Failure extends Error { code = 'E1'; }
class Node { #secret = 1; [key] = 2; '#text' = 'a'; '__@at' = 3; __dunder = 4; }
export default (router: Router) => {
  router.get('/keys', () => new Node());
  router.get('/errors', () => ({ plain: new Error('x', { cause: 1 }), own: new Failure('y') }));
  router.get('/getters', () => ({ get size() { return 1; }, set only(v: number) { void v; }, plain: 2, node: new Node() }));
  router.get('/values', () => ({
    buffer: Buffer.from('hi'),
    bytes: new Uint8Array([1, 2]),
    arrayBuffer: new ArrayBuffer(2),
    map: new Map([['a', 1]]),
    set: new Set(['x']),
    response: new Response('x'),
  }));
  router.get('/map', (): Map<string, number> => new Map([['a', 1]]));
  router.get('/views', () => ({
    words: new Uint16Array([1, 2]),
    clamped: new Uint8ClampedArray([300]),
    floats: new Float64Array([0.5]),
    view: new DataView(new ArrayBuffer(2)),
    pattern: /x/g,
    search: new URLSearchParams('a=1'),
    headers: new Headers({ a: '1' }),
  }));
  router.get('/platform', () => ({
    stream: new ReadableStream(),
    controller: new AbortController(),
    event: new Event('x'),
    shared: new SharedArrayBuffer(2),
    boxed: [new Number(1), new String('s'), new Boolean(true)] as [Number, String, Boolean],
    anything: { a: 1 } as Object,
  }));
  router.get('/words', () => new Uint16Array([1, 2]));
  router.get('/holes', (): { list: (string | undefined)[]; pair: [number, string | undefined] } => ({ list: ['a', undefined], pair: [1, undefined] }));
  router.get('/callbacks', () => ({ id: 1, callback: () => 1, key: Symbol('k'), either: Symbol('e') as symbol | string }));
};
`,
});
after(() => app.close());

test('Buffer, typed arrays, ArrayBuffer, DataView, Map, Set, RegExp, Headers, Response, streams, events, boxed primitives, errors, functions, symbols and undefined array elements inside JSON are documented as they serialise', async () => {
  const document = await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'));
  await assertAnswersMatchSchemas(document, app.url, ['/values', '/map', '/views', '/platform', '/callbacks', '/errors', '/holes']);
});

test('a typed array returned on its own is its bytes, not JSON', async () => {
  const document = await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'));
  assert.deepEqual(Object.keys(document.paths['/words']!.get!.responses['200']!.content!), ['application/octet-stream']);
  const res = await fetch(app.url + '/words');
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.deepEqual([...new Uint16Array(await res.arrayBuffer())], [1, 2]);
});

test('quoted keys that look like #private fields or symbol keys are data; the real ones are not', async () => {
  const document = await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'));
  const schema = (document as unknown as { components: { schemas: Record<string, { properties: object; required: string[] }> } }).components.schemas.Node!;
  const body = JSON.parse((await raw(app.url, '/keys')).body);
  assert.deepEqual(Object.keys(body), ['#text', '__@at', '__dunder']);
  assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(body).sort());
  assert.deepEqual([...schema.required].sort(), Object.keys(body).sort());
});

test("an object literal's getters are sent, a class's are not: both documented as sent", async () => {
  const document = await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'));
  const schema = document.paths['/getters']!.get!.responses['200']!.content!['application/json']!.schema as { properties: object; required: string[] };
  const body = JSON.parse((await raw(app.url, '/getters')).body);
  assert.deepEqual(Object.keys(body).sort(), ['node', 'plain', 'size']);
  assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(body).sort());
  assert.deepEqual([...schema.required].sort(), Object.keys(body).sort());
});
