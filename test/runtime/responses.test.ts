// SPEC §4 return value → response, and what handlers see of the request.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { Controller } from '../../runtime/controller.ts';
import { HttpError } from '../../runtime/errors/http-error.ts';
import { redirect, type RedirectStatus } from '../../runtime/http/redirect.ts';
import { handApp } from '../support/hand-app.ts';
import { firstChunk, raw, startApp, type Running } from '../support/server.ts';

// Above 4 GiB, Node 20's openAsBlob() gives the size modulo 2^32.
const HUGE = 3 * 1024 ** 3;

class UserController extends Controller {
  seen: unknown[] = [];
  show(id: string) {
    return { id, path: this.ctx.path, method: this.ctx.method, fresh: this.seen.length === 0 };
  }
  store() {
    this.seen.push(1);
    this.ctx.status(201).header('Location', '/users/9');
    return this.ctx.json<{ name: string }>();
  }
}

class NamedController extends Controller {
  hello(name: string) {
    return `hello ${name} from ${this.ctx.route?.pattern}`;
  }
}

describe('return values', () => {
  let server: Running;
  let folder: string;
  let bigFile: string;
  let hugeFile: string;
  const bigContent = randomBytes(3 * 1024 * 1024 + 1);
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'svc-blob-'));
    bigFile = join(folder, 'clip.mp4');
    await writeFile(bigFile, bigContent);
    hugeFile = join(folder, 'disk.img');
    await writeFile(hugeFile, '');
    await truncate(hugeFile, HUGE); // sparse: no disk space taken
    server = await startApp(
      handApp(
        [
          { method: 'GET', pattern: '/string', handler: () => '<h1>hi</h1>' },
          { method: 'GET', pattern: '/object', handler: () => ({ a: 1, b: [true, null] }) },
          { method: 'GET', pattern: '/array', handler: () => [1, 'two'] },
          { method: 'GET', pattern: '/number', handler: () => 42 },
          { method: 'GET', pattern: '/boolean', handler: () => false },
          { method: 'GET', pattern: '/null', handler: () => null },
          { method: 'GET', pattern: '/undefined', handler: () => undefined },
          { method: 'GET', pattern: '/buffer', handler: () => Buffer.from([0, 1, 2, 255]) },
          { method: 'GET', pattern: '/bytes', handler: () => new Uint8Array([7, 8]) },
          { method: 'GET', pattern: '/array-buffer', handler: () => new Uint8Array([3, 4, 5]).buffer },
          { method: 'GET', pattern: '/typed', handler: () => new Uint16Array([0x4241, 0x4443]).subarray(1) },
          { method: 'GET', pattern: '/data-view', handler: () => new DataView(new Uint8Array([9, 10, 11, 12]).buffer, 1, 2) },
          { method: 'GET', pattern: '/blob', handler: () => new Blob(['plain words'], { type: 'text/plain' }) },
          { method: 'GET', pattern: '/blob-untyped', handler: () => new Blob([new Uint8Array([1, 2])]) },
          {
            method: 'GET',
            pattern: '/response',
            handler: () => {
              const headers = new Headers({ 'content-type': 'text/plain', 'x-custom': 'yes' });
              headers.append('set-cookie', 'a=1');
              headers.append('set-cookie', 'b=2');
              return new Response('teapot', { status: 418, headers });
            },
          },
          { method: 'GET', pattern: '/promise', handler: async () => ({ later: true }) },
          { method: 'GET', pattern: '/go', handler: () => redirect('/there?x=1') },
          { method: 'POST', pattern: '/go/{status}', handler: (status: string) => redirect('https://example.com/', Number(status) as RedirectStatus) },
          { method: 'GET', pattern: '/promise-string', handler: () => new Promise((resolve) => setTimeout(() => resolve('waited'), 5)) },
          { method: 'GET', pattern: '/promise-response', handler: async () => new Response(null, { status: 202 }) },
          {
            method: 'GET',
            pattern: '/status',
            handler: function (this: Context) {
              this.status(202).header('X-One', '1').header('Content-Type', 'text/plain; charset=utf-8');
              return 'accepted';
            },
          },
          { method: 'GET', pattern: '/status-null', handler: function (this: Context) { return void this.status(201); } },
          {
            method: 'GET',
            pattern: '/ctx/{a}/{b}',
            handler: function (this: Context, a: string, b: string) {
              return {
                args: [a, b],
                params: this.params,
                method: this.method,
                path: this.path,
                url: this.url,
                q: this.query.getAll('q'),
                ip: this.ip,
                agent: this.headers['user-agent'],
                id: /^[0-9a-f-]{36}$/.test(this.requestId),
                route: this.route,
                hasRaw: typeof this.req.on === 'function' && typeof this.res.setHeader === 'function',
              };
            },
          },
          { method: 'POST', pattern: '/echo', handler: function (this: Context) { return { text: this.text(), size: this.body.length }; } },
          { method: 'POST', pattern: '/json', handler: function (this: Context) { return this.json(); } },
          { method: 'GET', pattern: '/users/{id}', handler: [UserController, 'show'] },
          { method: 'POST', pattern: '/users', handler: [UserController, 'store'] },
          { method: 'GET', pattern: '/named/{name}', handler: ['NamedController', 'hello'] },
          { method: 'GET', pattern: '/raw', handler: function (this: Context) { this.res.writeHead(299, { 'x-raw': '1' }).end('by hand'); } },
          { method: 'GET', pattern: '/status-json', handler: function (this: Context) { return this.status(201) && { made: true }; } },
          { method: 'GET', pattern: '/status-bodiless', handler: function (this: Context) { return this.status(204) && { dropped: true }; } },
          { method: 'GET', pattern: '/status-interim', handler: function (this: Context) { return this.status(103) && { lost: true }; } },
          { method: 'GET', pattern: '/status-reset', handler: function (this: Context) { return this.status(205) && 'dropped'; } },
          { method: 'GET', pattern: '/status-unchanged', handler: function (this: Context) { return this.status(304) && this.header('etag', '"v1"') && 'dropped'; } },
          { method: 'GET', pattern: '/framing', handler: function (this: Context) { return this.header('Transfer-Encoding', 'chunked') && 'short'; } },
          { method: 'GET', pattern: '/framing-error', handler: () => { throw new HttpError(503, 'later', { 'transfer-encoding': 'chunked' }); } },
          { method: 'GET', pattern: '/status-error', handler: function (this: Context) { return this.status(409) && 'taken'; } },
          { method: 'GET', pattern: '/closed/{day}', handler: () => { throw new HttpError(405, 'Closed today'); } },
          { method: 'POST', pattern: '/closed/{day}', handler: () => 'posted' },
          { method: 'GET', pattern: '/closed-named', handler: () => { throw new HttpError(405, 'Use POST', { Allow: 'POST' }); } },
          { method: 'GET', pattern: '/bigint', handler: () => ({ big: 1n }) },
          { method: 'GET', pattern: '/proto/{__proto__}', handler: function (this: Context) { return { own: Object.hasOwn(this.params, '__proto__'), value: this.params['__proto__'] }; } },
          { method: 'GET', pattern: '/go-abroad', handler: () => redirect('/café/日本?q=a b&done=100%&kept=%2F') },
          { method: 'GET', pattern: '/go-back', handler: () => redirect('/\\evil.com/^|[::1]') },
          { method: 'GET', pattern: '/blob-file', handler: () => openAsBlob(bigFile, { type: 'video/mp4' }) },
          { method: 'GET', pattern: '/blob-huge', handler: () => openAsBlob(hugeFile) },
        ],
        { classes: { NamedController } },
      ),
    );
  });
  after(async () => {
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  const get = (path: string, init?: RequestInit) => fetch(server.url + path, init);

  it('sends a string as 200 text/html; charset=utf-8', async () => {
    const res = await get('/string');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await res.text(), '<h1>hi</h1>');
  });

  it('sends objects, arrays, numbers and booleans as JSON', async () => {
    for (const [path, value] of [['/object', { a: 1, b: [true, null] }], ['/array', [1, 'two']], ['/number', 42], ['/boolean', false]] as const) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type')!, /^application\/json/, path);
      assert.deepEqual(await res.json(), value, path);
    }
  });

  it('sends null and undefined as 204 without a body', async () => {
    for (const path of ['/null', '/undefined']) {
      const res = await raw(server.url, path);
      assert.equal(res.status, 204, path);
      assert.equal(res.body, '');
      assert.equal(res.headers['content-length'], undefined);
    }
  });

  it('sends Buffer and Uint8Array as application/octet-stream', async () => {
    const res = await get('/buffer');
    assert.equal(res.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], [0, 1, 2, 255]);
    assert.deepEqual([...new Uint8Array(await (await get('/bytes')).arrayBuffer())], [7, 8]);
  });

  it('sends an ArrayBuffer, other typed arrays and a DataView as the bytes they hold or view', async () => {
    for (const [path, bytes] of [['/array-buffer', [3, 4, 5]], ['/typed', [0x43, 0x44]], ['/data-view', [10, 11]]] as const) {
      const res = await get(path);
      assert.equal(res.headers.get('content-type'), 'application/octet-stream', path);
      assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], bytes, path);
    }
  });

  it('sends a Blob as its bytes, typed by its own type or else as application/octet-stream', async () => {
    const typed = await raw(server.url, '/blob');
    assert.equal(typed.headers['content-type'], 'text/plain');
    assert.equal(typed.headers['content-length'], '11');
    assert.equal(typed.body, 'plain words');
    const untyped = await get('/blob-untyped');
    assert.equal(untyped.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual([...new Uint8Array(await untyped.arrayBuffer())], [1, 2]);
  });

  it('streams a large Blob (a file from openAsBlob) with its size as the length', async () => {
    const res = await get('/blob-file');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal(res.headers.get('content-length'), String(bigContent.length));
    assert.equal(res.headers.get('transfer-encoding'), null);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(bigContent));
    const head = await raw(server.url, '/blob-file', { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers['content-length'], head.body], [200, String(bigContent.length), '']);
    // Read whole, it took 3 GiB of memory, and many seconds before the first byte went out.
    const peakBefore = process.resourceUsage().maxRSS;
    const huge = await raw(server.url, '/blob-huge', { method: 'HEAD' });
    assert.deepEqual([huge.status, huge.headers['content-length']], [200, String(HUGE)]);
    const start = await firstChunk(`${server.url}/blob-huge`);
    assert.ok(start.length > 0 && start.every((byte) => byte === 0));
    const grewKiB = process.resourceUsage().maxRSS - peakBefore;
    assert.ok(grewKiB < 256 * 1024, `the peak memory grew by ${Math.round(grewKiB / 1024)} MiB`);
  });

  it('sends a web Response as it is, repeated Set-Cookie included', async () => {
    const res = await raw(server.url, '/response');
    assert.equal(res.status, 418);
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.equal(res.headers['x-custom'], 'yes');
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(res.body, 'teapot');
    assert.equal(res.headers['content-length'], '6', 'a body that is there at once is sent with its length');
    assert.equal((await get('/promise-response')).status, 202);
  });

  it('redirect() answers with a Location, 302 unless told, relative locations too', async () => {
    const found = await raw(server.url, '/go');
    assert.equal(found.status, 302);
    assert.equal(found.headers.location, '/there?x=1');
    assert.equal(found.body, '');
    const seeOther = await raw(server.url, '/go/303', { method: 'POST' });
    assert.equal(seeOther.status, 303);
    assert.equal(seeOther.headers.location, 'https://example.com/');
    assert.equal((await raw(server.url, '/go/200', { method: 'POST' })).status, 500, 'a status that does not redirect is a mistake in the handler');
  });

  it('redirect() percent-encodes what a URI cannot hold, as UTF-8, and keeps escapes already there', async () => {
    const abroad = await raw(server.url, '/go-abroad');
    assert.equal(abroad.status, 302);
    assert.equal(abroad.headers.location, '/caf%C3%A9/%E6%97%A5%E6%9C%AC?q=a%20b&done=100%25&kept=%2F');
    // A raw backslash would send browsers to another host (`/\evil.com` reads as `//evil.com`).
    assert.equal((await raw(server.url, '/go-back')).headers.location, '/%5Cevil.com/%5E%7C[::1]');
  });

  it('awaits promises', async () => {
    assert.deepEqual(await (await get('/promise')).json(), { later: true });
    assert.equal(await (await get('/promise-string')).text(), 'waited');
  });

  it('applies ctx.status() and ctx.header()', async () => {
    const res = await get('/status');
    assert.equal(res.status, 202);
    assert.equal(res.headers.get('x-one'), '1');
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal((await get('/status-null')).status, 201);
  });

  it('keeps a placeholder named __proto__ in ctx.params as its own key', async () => {
    assert.deepEqual(await (await get('/proto/x')).json(), { own: true, value: 'x' });
  });

  it('gives closures the context as `this` and the placeholders as arguments', async () => {
    const res = await get('/ctx/x%20y/2?q=1&q=2', { headers: { 'user-agent': 'svc-test' } });
    assert.deepEqual(await res.json(), {
      args: ['x y', '2'],
      params: { a: 'x y', b: '2' },
      method: 'GET',
      path: '/ctx/x y/2',
      url: '/ctx/x%20y/2?q=1&q=2',
      q: ['1', '2'],
      ip: '127.0.0.1',
      agent: 'svc-test',
      id: true,
      route: { id: 22, method: 'GET', pattern: '/ctx/{a}/{b}', paramNames: ['a', 'b'], source: 'routes/test.ts:23:3' },
      hasRaw: true,
    });
  });

  it('reads the body before the handler', async () => {
    assert.deepEqual(await (await get('/echo', { method: 'POST', body: 'héllo' })).json(), { text: 'héllo', size: 6 });
    assert.deepEqual(await (await get('/echo', { method: 'POST' })).json(), { text: '', size: 0 });
    const chunked = await raw(server.url, '/echo', { method: 'POST', body: ['ab', 'cd'] });
    assert.deepEqual(JSON.parse(chunked.body), { text: 'abcd', size: 4 });
  });

  it('parses JSON bodies and answers 400 for malformed ones', async () => {
    assert.deepEqual(await (await get('/json', { method: 'POST', body: '{"a":[1]}' })).json(), { a: [1] });
    assert.deepEqual(await (await get('/json', { method: 'POST', body: '\uFEFF{"bom":true}' })).json(), { bom: true });
    const bad = await get('/json', { method: 'POST', body: '{"a":' });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { detail: string }).detail, /not valid JSON/);
    // RFC 8259 §8.1: JSON is UTF-8; bytes that are not would be read as U+FFFD, data the client never sent.
    const latin1 = await get('/json', { method: 'POST', body: Buffer.from('{"a":"caf\xe9"}', 'latin1') });
    assert.equal(latin1.status, 400);
    assert.equal(((await latin1.json()) as { detail: string }).detail, 'The request body is not valid UTF-8.');
  });

  it('reads text in the charset the request declares, UTF-8 when none; an unknown one is 415', async () => {
    const declared = await get('/echo', { method: 'POST', body: Buffer.from('café', 'latin1'), headers: { 'content-type': 'text/plain; charset=ISO-8859-1' } });
    assert.deepEqual(await declared.json(), { text: 'café', size: 4 });
    const quoted = await get('/echo', { method: 'POST', body: Buffer.from('café'), headers: { 'content-type': 'text/plain; charset="utf-8"' } });
    assert.deepEqual(await quoted.json(), { text: 'café', size: 5 });
    const unknown = await get('/echo', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain; charset=klingon' } });
    assert.equal(unknown.status, 415);
  });

  it('answers 400 for JSON nested past 512 levels, brackets inside strings not counted', async () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    const deepest = await get('/json', { method: 'POST', body: nested(512) });
    assert.equal(deepest.status, 200);
    const quoted = `{"a":"${'['.repeat(2000)}\\\"${'{'.repeat(2000)}","b":${nested(500)}}`;
    assert.equal((await get('/json', { method: 'POST', body: quoted })).status, 200);
    for (const body of [nested(513), nested(200_000)]) {
      const bad = await get('/json', { method: 'POST', body });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { detail: string }).detail, /nested deeper than 512 levels/);
    }
  });

  it('creates a controller per request and sets its ctx before the call', async () => {
    assert.deepEqual(await (await get('/users/5')).json(), { id: '5', path: '/users/5', method: 'GET', fresh: true });
    for (let i = 0; i < 2; i++) {
      const res = await get('/users', { method: 'POST', body: '{"name":"ann"}' });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('location'), '/users/9');
      assert.deepEqual(await res.json(), { name: 'ann' });
    }
  });

  it('resolves controllers named by string through the build’s classes', async () => {
    assert.equal(await (await get('/named/bo')).text(), 'hello bo from /named/{name}');
  });

  it('sends the status a handler set with its plain value, no body for a status that has none', async () => {
    const made = await raw(server.url, '/status-json');
    assert.equal(made.status, 201);
    assert.equal(made.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(made.headers['content-length'], String(made.body.length));
    assert.deepEqual(JSON.parse(made.body), { made: true });
    const bodiless = await raw(server.url, '/status-bodiless');
    assert.equal(bodiless.status, 204);
    assert.equal(bodiless.body, '');
    assert.equal(bodiless.headers['content-length'], undefined);
  });

  it('sends no Content-Type for a value a status without content drops (a 304 would retype the cached copy)', async () => {
    for (const [path, status] of [['/status-bodiless', 204], ['/status-reset', 205], ['/status-unchanged', 304]] as const) {
      const res = await raw(server.url, path);
      assert.equal(res.status, status, path);
      assert.equal(res.headers['content-type'], undefined, path);
    }
    assert.equal((await raw(server.url, '/status-unchanged')).headers['etag'], '"v1"', 'what the handler set stays');
  });

  it('gives a 405 a handler throws the Allow of its path, unless it names one (RFC 9110 §15.5.6)', async () => {
    const thrown = await raw(server.url, '/closed/monday');
    assert.equal(thrown.status, 405);
    assert.equal(thrown.headers['allow'], 'GET, HEAD, OPTIONS, POST');
    assert.equal(JSON.parse(thrown.body).detail, 'Closed today');
    assert.equal((await raw(server.url, '/closed-named')).headers['allow'], 'POST');
  });

  it('refuses an interim (1xx) status from ctx.status(): the client would wait for a final answer', async () => {
    const res = await raw(server.url, '/status-interim');
    assert.equal(res.status, 500);
    assert.ok((await server.logLines()).some((line) => line.includes('final HTTP status from 200 to 599, got 103')));
  });

  it('sends a 205 without content, saying so with Content-Length: 0 (RFC 9110 §15.3.6)', async () => {
    const res = await raw(server.url, '/status-reset');
    assert.equal(res.status, 205);
    assert.equal(res.body, '');
    assert.equal(res.headers['content-length'], '0');
  });

  it('frames the body itself: a Transfer-Encoding from the handler or an HttpError is not sent beside Content-Length', async () => {
    for (const [path, status, body] of [['/framing', 200, 'short'], ['/framing-error', 503, undefined]] as const) {
      const res = await raw(server.url, path);
      assert.equal(res.status, status, path);
      assert.equal(res.headers['transfer-encoding'], undefined, path);
      assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.body)), path);
      if (body) assert.equal(res.body, body);
      assert.equal((await get(path)).status, status, 'node\'s own client reads it');
    }
  });

  it('logs an error status a handler set with a plain value', async () => {
    const res = await raw(server.url, '/status-error');
    assert.equal(res.status, 409);
    assert.equal(res.body, 'taken');
    assert.ok((await server.logLines()).some((line) => line.includes('[409] GET /status-error 409 from')));
  });

  it('answers HEAD with the headers of GET, Content-Length included, and no body', async () => {
    const [get, head] = [await raw(server.url, '/object'), await raw(server.url, '/object', { method: 'HEAD' })];
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
    assert.equal(head.headers['content-type'], get.headers['content-type']);
  });

  it('answers 500 for a value JSON cannot hold', async () => {
    const res = await raw(server.url, '/bigint');
    assert.equal(res.status, 500);
    assert.equal(res.headers['content-type'], 'application/problem+json');
  });

  it('leaves a response the handler wrote itself alone', async () => {
    const res = await get('/raw');
    assert.equal(res.status, 299);
    assert.equal(await res.text(), 'by hand');
  });
});
