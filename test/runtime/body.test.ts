// SPEC §4: request bodies over `server.bodyLimit` get 413.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';
import { exchange } from '../robustness/raw-http.ts';

const routes = [
  { method: 'POST' as const, pattern: '/upload', handler: function (this: Context) { return { size: this.body.length }; } },
  { method: 'GET' as const, pattern: '/ok', handler: () => 'ok' },
];

describe('body limit (default 1 MiB)', () => {
  let server: Running;
  let handled = 0;
  before(async () => {
    server = await startApp(
      handApp([
        ...routes,
        { method: 'POST', pattern: '/count', handler: () => ++handled },
      ]),
    );
  });
  after(() => server.close());

  it('accepts a body of exactly the limit', async () => {
    const res = await fetch(`${server.url}/upload`, { method: 'POST', body: Buffer.alloc(1024 * 1024) });
    assert.deepEqual(await res.json(), { size: 1024 * 1024 });
  });

  it('refuses a declared Content-Length over the limit with 413, before the handler', async () => {
    const res = await fetch(`${server.url}/count`, { method: 'POST', body: Buffer.alloc(1024 * 1024 + 1) });
    assert.equal(res.status, 413);
    assert.equal(res.headers.get('content-type'), 'application/problem+json');
    assert.match(((await res.json()) as { detail: string }).detail, /1048576-byte limit/);
    assert.equal(handled, 0);
  });

  it('counts a chunked body while reading it and answers 413', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'x');
    const res = await raw(server.url, '/count', { method: 'POST', body: [chunk, chunk, chunk, chunk, chunk] });
    assert.equal(res.status, 413);
    assert.equal(handled, 0);
    const under = await raw(server.url, '/upload', { method: 'POST', body: [chunk, chunk] });
    assert.deepEqual(JSON.parse(under.body), { size: 512 * 1024 });
  });

  it('refuses a transfer coding other than chunked with 501, before the handler, and closes the connection', async () => {
    const before = (await server.logLines()).length;
    const request = 'POST /count HTTP/1.1\r\nhost: a\r\ntransfer-encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
    const { response } = await exchange(server.url, request); // resolves once the server closes
    assert.equal(response.status, 501);
    assert.equal(response.headers['content-type'], 'application/problem+json');
    assert.match((JSON.parse(response.body.toString()) as { detail: string }).detail, /"gzip, chunked" is not supported/);
    assert.equal(handled, 0);
    const lines = (await server.logLines()).slice(before);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /\] \[501\] POST \/count 501 from /);
  });

  it('keeps serving after refusing', async () => {
    assert.equal(await (await fetch(`${server.url}/ok`)).text(), 'ok');
  });
});

describe('body limit from svc.json', () => {
  let server: Running;
  before(async () => {
    server = await startApp(handApp(routes, { config: { server: { ...DEFAULT_CONFIG.server, bodyLimit: 10 } } }));
  });
  after(() => server.close());

  it('applies server.bodyLimit', async () => {
    assert.deepEqual(await (await fetch(`${server.url}/upload`, { method: 'POST', body: '0123456789' })).json(), { size: 10 });
    assert.equal((await fetch(`${server.url}/upload`, { method: 'POST', body: '0123456789a' })).status, 413);
    assert.equal((await raw(server.url, '/upload', { method: 'POST', body: ['012345', '6789a'] })).status, 413);
  });
});
