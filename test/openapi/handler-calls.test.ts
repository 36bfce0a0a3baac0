// What a handler's body, and the application's functions it calls, ask of the request
// context and throw (compiler/analyse/calls/) is documented: request bodies, query
// parameters, the statuses it sets, the errors it and its middleware answer with. `svc build` on a project tree, then the built server is
// asked what the document says it answers.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '../../compiler/build.ts';
import { emitOpenApi, readApiInfo } from '../../compiler/emit/openapi/index.ts';
import { raw, startProject } from '../support/server.ts';
import { assertValidOpenApi } from './validate.ts';

const app = await startProject({
  'package.json': JSON.stringify({ name: 'handler-calls', version: '1.0.0', private: true, type: 'module' }),
  'routes/api.ts': [
    "import { abort, HttpError, RateLimitKnots, type Context, type Router } from 'svc';",
    "import { Guard } from '../weave/Middleware/Guard.ts';",
    "import { Items, type Item, type NewItem } from '../weave/Controllers/Items.ts';",
    "import { Store } from '../weave/Models/Store.ts';",
    "import { Gone, Kettle, StaleConflict, Unavailable } from '../weave/Errors.ts';",
    '',
    '/** Reads the body for the handler that calls it. */',
    'function readItem(ctx: Context): NewItem {',
    "  if (ctx.query.has('strict')) abort(418);",
    '  return ctx.json<NewItem>();',
    '}',
    '',
    'function countdown(ctx: Context, n: number): number {',
    '  if (n === 0) abort(410);',
    "  return n > 0 ? countdown(ctx, n - 1) : Number(ctx.query.get('from'));",
    '}',
    '',
    '/** An object of the application\'s own with methods named as the context\'s. */',
    "const lookalike = { json: <T>(): T => ({}) as T, status: (code: number) => code, query: new URLSearchParams('a=1') };",
    '',
    'export default (router: Router) => {',
    "  router.post('/items', [Items, 'store']);",
    "  router.put('/items/{id}', [Items, 'replace']);",
    "  router.post('/untyped', function (this: Context) { return { got: this.json() }; });",
    "  router.post('/inferred', function (this: Context): Item { const body: NewItem = this.json(); return { id: 1, ...body }; });",
    "  router.post('/form', async function (this: Context) { return Object.fromEntries(await this.form()); });",
    "  router.post('/text', function (this: Context) { return this.text(); });",
    "  router.post('/either', function (this: Context) { return this.headers['content-type'] === 'text/plain' ? this.text() : { json: this.json<NewItem>() }; });",
    "  router.post('/one-of', function (this: Context) { return this.query.has('full') ? this.json<Item>().id : this.json<NewItem>().name; });",
    "  router.post('/maybe', function (this: Context) { return this.body.length ? this.json<NewItem>() : null; });",
    "  router.post('/maybe-text', function (this: Context) { let got = ''; if (this.headers['content-type'] === 'text/plain') got = this.text(); return got; });",
    "  router.post('/in-closure', function (this: Context) { const read = () => this.json<NewItem>(); return this.method === 'POST' ? null : read(); });",
    "  router.post('/in-loop', function (this: Context) { const seen = []; for (const _ of [1]) seen.push(this.json<NewItem>()); return seen; });",
    "  router.post('/after-check', function (this: Context) { if (this.body.length === 0) abort(400, 'Send an item.'); return this.json<NewItem>(); });",
    "  router.get('/search', function (this: Context) {",
    "    const name = 'dynamic';",
    "    const q = this.query.get('q');",
    "    const tags = this.query.getAll('tag');",
    "    const all = this.query.has('all') || this.query.get('q') !== null || this.query.get(name) !== null;",
    "    return { q, tags, all, other: lookalike.query.get('other') };",
    '  });',
    "  router.get('/aliased', function (this: Context) {",
    "    const q = this.query;",
    "    const { query } = this;",
    "    let later = this.query;",
    "    return [q.get('a'), query.getAll('b'), later.get('not-const'), new URLSearchParams('c=1').get('c')];",
    '  });',
        "  router.get('/accepted', function (this: Context) { this.status(202); return { queued: true }; });",
    "  router.get('/either-status', function (this: Context) { if (this.query.has('old')) this.status(203); else this.status(201); return { ok: true }; });",
    "  router.get('/created-or-nothing', function (this: Context): Item | null { this.status(201); return null; });",
    "  router.get('/accepted-nothing', function (this: Context) { this.status(202); });",
    "  router.get('/created-or-not', function (this: Context): Item | null { if (this.query.has('new')) { this.status(201); return { id: 1, name: 'a' }; } return null; });",
    "  router.get('/computed-status', function (this: Context) { const code = 201; this.status(code); return { ok: true }; });",
    "  router.get('/quiet', function (this: Context) { this.status(204); return { dropped: true }; });",
    "  router.get('/lookalike', () => { lookalike.status(201); return lookalike.json<Item>(); });",
    "  router.get('/fails/{id}', (id: number) => { if (id === 0) throw new HttpError(404, 'none'); if (id < 0) abort(409); return { id }; });",
    "  router.get('/out-of-range', () => { throw new HttpError(302, 'not an error status'); });",
    "  router.post('/helper', function (this: Context) { return readItem(this); });",
    "  router.post('/helper-twice', function (this: Context) { return [readItem(this), readItem(this)]; });",
    "  router.post('/helper-maybe', function (this: Context) { return this.method === 'POST' ? readItem(this) : null; });",
    "  router.get('/things/{id}', (id: number) => Store.findOrFail(id));",
    "  router.get('/countdown', function (this: Context) { return countdown(this, 3); });",
    "  router.post('/items/copy', [Items, 'copy']);",
    "  router.get('/own-errors/{n}', (n: number) => { if (n === 1) throw new Gone(); if (n === 2) throw new StaleConflict(); if (n === 3) throw new Kettle(); if (n === 4) throw new Unavailable(503, 'Later.'); return n; });",
    "  router.group({ middleware: [Guard, 'Named'] }, (r) => { r.get('/guarded', () => 'in'); });",
    "  router.group({ middleware: [[RateLimitKnots, [1, 60]]] }, (r) => { r.get('/limited', () => ({ ok: true })); r.get('/limited-nothing', () => null); });",
    '};',
    '',
  ].join('\n'),
  'weave/Controllers/Items.ts': [
    "import { Controller, HttpError } from 'svc';",
    '',
    'export interface NewItem { name: string }',
    'export interface Item extends NewItem { id: number }',
    '',
    'export class Items extends Controller {',
    '  store(): Item {',
    '    const item = { id: 1, ...this.ctx.json<NewItem>() };',
    '    this.ctx.status(201).header(\'location\', `/items/${item.id}`);',
    '    return item;',
    '  }',
    '',
    '  replace(id: number): Item {',
    '    const ctx = this.ctx;',
    "    if (!ctx.json<NewItem>().name) throw new HttpError(422, 'A name is required.');",
    '    return { id, ...ctx.json<NewItem>() };',
    '  }',
    '',
    '  copy(): Item {',
    '    return { id: 2, ...this.input() };',
    '  }',
    '',
    '  private input(): NewItem {',
    '    return this.ctx.json<NewItem>();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'weave/Errors.ts': [
    "import { HttpError } from 'svc';",
    '',
    "export class Gone extends HttpError { constructor(detail?: string) { super(410, detail); } }",
    "export class Conflict extends HttpError { constructor(detail = 'Conflict.') { super(409, detail); } }",
    "export class StaleConflict extends Conflict { constructor() { super('Stale.'); } }",
    "export class Teapot extends HttpError { constructor() { super(418); } }",
    'export class Kettle extends Teapot {}',
    'export class Unavailable extends HttpError {}',
    '',
  ].join('\n'),
  'weave/Models/Store.ts': [
    "import { abort } from 'svc';",
    "import type { Item } from '../Controllers/Items.ts';",
    '',
    'export class Store {',
    '  static findOrFail(id: number): Item {',
    "    if (id !== 1) abort(404, 'No such item.');",
    "    return { id, name: 'one' };",
    '  }',
    '}',
    '',
  ].join('\n'),
  'weave/Middleware/Guard.ts': [
    "import { HttpError, type Context, type Middleware, type Next, type Outgoing } from 'svc';",
    '',
    'export class Guard implements Middleware {',
    '  handle(ctx: Context, next: Next): Promise<Outgoing> {',
    "    if (ctx.headers['x-key'] !== 'open') throw new HttpError(401, 'Send x-key.');",
    '    return next();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'weave/Middleware/Named.ts': [
    "import { abort, type Context, type Next, type Outgoing } from 'svc';",
    '',
    'export class Named {',
    '  handle(ctx: Context, next: Next): Promise<Outgoing> {',
    "    if (ctx.query.has('closed')) abort(503, 'Closed.');",
    '    return next();',
    '  }',
    '}',
    '',
  ].join('\n'),
});
after(() => app.close());

type Operation = { parameters?: unknown[]; requestBody?: { required: boolean; content: Record<string, { schema: unknown }> }; responses: Record<string, any> };
const text = await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8');
const document = (await assertValidOpenApi(text)) as unknown as { paths: Record<string, Record<string, Operation>>; components: Record<string, any> };
const op = (method: string, path: string): Operation => document.paths[path]![method]!;

const NEW_ITEM = { $ref: '#/components/schemas/NewItem' };
const json = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
const problem = (name: string) => ({ $ref: `#/components/responses/${name}` });

test('json<T>() on the context, however reached, is a required JSON body of T, named as the responses name types', () => {
  assert.deepEqual(op('post', '/items').requestBody, json(NEW_ITEM));
  assert.deepEqual(op('put', '/items/{id}').requestBody, json(NEW_ITEM), 'through `const ctx = this.ctx`, read twice');
  assert.deepEqual(document.components.schemas.NewItem, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  assert.deepEqual(op('post', '/items').responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Item' });
});

test('json() without a type argument is any JSON; one inferred from an annotation is that type', () => {
  assert.deepEqual(op('post', '/untyped').requestBody, json({}));
  assert.deepEqual(op('post', '/inferred').requestBody, json(NEW_ITEM));
});

test('a body read on every path is required; one read in a branch, a closure or a loop is optional', () => {
  const optional = { content: { 'application/json': { schema: NEW_ITEM } } };
  assert.deepEqual(op('post', '/maybe').requestBody, optional);
  assert.deepEqual(op('post', '/maybe-text').requestBody, { content: { 'text/plain': { schema: { type: 'string' } } } });
  assert.deepEqual(op('post', '/in-closure').requestBody, optional);
  assert.deepEqual(op('post', '/in-loop').requestBody, optional);
  assert.deepEqual(op('post', '/after-check').requestBody, json(NEW_ITEM), 'a refusal before the read is not followed');
  assert.equal(op('post', '/either').requestBody!.required, true, 'each arm of the condition reads a body');
});

test('json() calls of different types take any of them', () => {
  assert.deepEqual(op('post', '/one-of').requestBody, json({ anyOf: [NEW_ITEM, { $ref: '#/components/schemas/Item' }] }));
});

test('form() is either form encoding; text() is text/plain; a handler reading both ways documents both', () => {
  const form = { schema: { type: 'object' } };
  assert.deepEqual(op('post', '/form').requestBody, { required: true, content: { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form } });
  assert.deepEqual(op('post', '/text').requestBody, { required: true, content: { 'text/plain': { schema: { type: 'string' } } } });
  assert.deepEqual(Object.keys(op('post', '/either').requestBody!.content), ['application/json', 'text/plain']);
});

test('query parameters read by a literal name, once each in source order; getAll is an array; the query may be held by a const', () => {
  assert.deepEqual(op('get', '/search').parameters, [
    { name: 'q', in: 'query', schema: { type: 'string' } },
    { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
    { name: 'all', in: 'query', schema: { type: 'string' } },
  ]);
  assert.deepEqual(op('put', '/items/{id}').parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }]);
  assert.deepEqual(op('get', '/aliased').parameters, [
    { name: 'a', in: 'query', schema: { type: 'string' } },
    { name: 'b', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
  ], 'through a const or a destructured const; not a let, nor a URLSearchParams of its own');
});

test('a literal status(n) documents the data under n instead of 200; several under each; nothing returned is under n too when n is set on every path, else a 204; a status without a body has no content', () => {
  assert.deepEqual(Object.keys(op('get', '/accepted').responses), ['202']);
  assert.equal(op('get', '/accepted').responses['202'].description, 'Accepted');
  const either = op('get', '/either-status').responses;
  assert.deepEqual(Object.keys(either).sort(), ['201', '203']);
  assert.deepEqual(either['201'].content, either['203'].content);
  // The server answers a null after status(201) with a 201 without a body (runtime/http/convert.ts), never a 204.
  assert.deepEqual(Object.keys(op('get', '/created-or-nothing').responses), ['201']);
  assert.deepEqual(op('get', '/accepted-nothing').responses, { '202': { description: 'Accepted' } });
  assert.deepEqual(Object.keys(op('get', '/created-or-not').responses).sort(), ['201', '204'], 'set in a branch only: nothing else is a 204');
  assert.deepEqual(Object.keys(op('get', '/computed-status').responses), ['200']);
  // The server sends no body with a 204 (runtime/http/write.ts), whatever the handler returns.
  assert.deepEqual(op('get', '/quiet').responses, { '204': { description: 'No Content' } });
});

test("errors thrown with a literal status, by the handler or by its middleware's handle, are problem+json responses", () => {
  assert.deepEqual(op('get', '/fails/{id}').responses['404'], problem('Problem'));
  assert.deepEqual(op('get', '/fails/{id}').responses['409'], problem('Problem'));
  assert.deepEqual(op('put', '/items/{id}').responses['422'], problem('Problem'));
  assert.deepEqual(op('get', '/guarded').responses['401'], problem('Problem'), 'a middleware imported by reference');
  assert.deepEqual(op('get', '/guarded').responses['503'], problem('Problem'), 'a middleware named by string');
  assert.deepEqual(Object.keys(op('get', '/out-of-range').responses), ['default'], 'HttpError refuses a status below 400');
  assert.deepEqual(Object.keys(document.components.responses.Problem.content), ['application/problem+json']);
});

test("the application's own functions a handler calls are read too: helpers, its controller's methods, a model's static, an error class's constructor", () => {
  assert.deepEqual(op('post', '/helper').requestBody, json(NEW_ITEM));
  assert.deepEqual(op('post', '/helper').parameters, [{ name: 'strict', in: 'query', schema: { type: 'string' } }]);
  assert.deepEqual(Object.keys(op('post', '/helper').responses), ['200', '418']);
  const twice = op('post', '/helper-twice');
  assert.deepEqual([twice.requestBody, twice.parameters], [json(NEW_ITEM), op('post', '/helper').parameters], 'called twice, listed once');
  assert.deepEqual(op('post', '/helper-maybe').requestBody, { content: { 'application/json': { schema: NEW_ITEM } } }, 'called in one branch: optional');
  assert.deepEqual(op('post', '/items/copy').requestBody, json(NEW_ITEM), 'this.input(), a private method');
  assert.deepEqual(op('get', '/things/{id}').responses['404'], problem('Problem'), 'Store.findOrFail(), in a file of its own');
  assert.deepEqual(Object.keys(op('get', '/own-errors/{n}').responses), ['200', '400', '409', '410', '418', '503'], 'HttpError subclasses, through their constructors, or their bases\' for a class without one');
  const countdown = op('get', '/countdown');
  assert.deepEqual([countdown.parameters, Object.keys(countdown.responses)], [[{ name: 'from', in: 'query', schema: { type: 'string' } }], ['200', '410']], 'a recursive helper');
});

test('look-alikes of the context are not read, nor followed into anything', () => {
  assert.deepEqual(Object.keys(op('get', '/lookalike').responses), ['200']);
  assert.equal(op('get', '/search').parameters!.length, 3, "the look-alike's query.get('other') is not a parameter");
});

test('RateLimitKnots: a 429 with Retry-After, and the rate-limit headers on the answers', () => {
  const limited = op('get', '/limited').responses;
  assert.deepEqual(limited['429'], problem('RateLimited'));
  assert.deepEqual(Object.keys(limited['200'].headers), ['X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  assert.deepEqual(Object.keys(op('get', '/limited-nothing').responses['204'].headers), ['X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  assert.deepEqual(Object.keys(document.components.responses.RateLimited.headers), ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  assert.equal(op('get', '/guarded').responses['200'].headers, undefined);
});

/** The documented response for `status`, with a shared one looked up. */
function documented(operation: Operation, status: number): { headers?: Record<string, unknown>; content?: Record<string, unknown> } | undefined {
  const response = operation.responses[String(status)];
  return response?.$ref ? document.components.responses[response.$ref.split('/').pop()!] : response;
}

test('the built server answers as documented: a body sent as the document says, and each status and header', async () => {
  // [method, documented path, request, target when the path has placeholders]
  const cases: Array<[string, string, { method?: string; headers?: Record<string, string>; body?: string }, string?]> = [
    ['post', '/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' }],
    ['put', '/items/{id}', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":""}' }, '/items/1'],
    ['get', '/accepted', {}],
    ['get', '/quiet', {}],
    ['get', '/created-or-nothing', {}],
    ['get', '/accepted-nothing', {}],
    ['get', '/created-or-not', {}],
    ['get', '/created-or-not', {}, '/created-or-not?new'],
    ['get', '/fails/{id}', {}, '/fails/0'],
    ['get', '/things/{id}', {}, '/things/2'],
    ['get', '/own-errors/{n}', {}, '/own-errors/2'],
    ['get', '/own-errors/{n}', {}, '/own-errors/3'],
    ['get', '/own-errors/{n}', {}, '/own-errors/4'],
    ['post', '/helper', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' }],
    ['get', '/guarded', {}],
    ['get', '/guarded', { headers: { 'x-key': 'open' } }],
    ['get', '/limited', {}],
    ['get', '/limited', {}],
  ];
  for (const [method, path, init, target = path] of cases) {
    const res = await raw(app.url, target, init);
    const response = documented(op(method, path), res.status);
    assert.ok(response, `${method} ${path} answered ${res.status}, which is not documented`);
    for (const header of Object.keys(response.headers ?? {})) assert.ok(res.headers[header.toLowerCase()], `${method} ${path} ${res.status}: no ${header}`);
  }
});

test('building the tree again yields the same bytes', async () => {
  const { table } = await build(app.root, { write: false });
  assert.equal(emitOpenApi(table!, await readApiInfo(app.root)), text);
});
