// `Expect: 100-continue`: the client holds its body back until the server asks for it.
// svc asks only once the IP rules, the route and a declared length over the limit are
// decided, so a request refused by any of them costs no upload.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { drain } from '../../runtime/server/shutdown.ts';
import { handApp } from '../support/hand-app.ts';
import { startApp, type Running } from '../support/server.ts';
import { exchange, expectContinue } from '../robustness/raw-http.ts';

let server: Running;
before(async () => {
  const app = handApp([{ method: 'POST', pattern: '/upload/{name?}', handler: function (this: Context) { return { size: this.body.length }; } }], {
    config: { server: { ...DEFAULT_CONFIG.server, bodyLimit: 100 } },
  });
  server = await startApp(app, { ipFilter: (_ip, path) => path !== '/upload/private' });
});
after(() => server?.close());

const send = (method: string, target: string, length: number) =>
  expectContinue(server.url, `${method} ${target} HTTP/1.1\r\nhost: a\r\ncontent-length: ${length}\r\nexpect: 100-continue\r\n\r\n`, 'x'.repeat(length));

describe('Expect: 100-continue', () => {
  it('is refused without asking for the body: a denied address, no route, another method, a declared length over the limit', async () => {
    const refusals = [
      ['POST', '/upload/private', 10, 403],
      ['POST', '/nope', 10, 404],
      ['PUT', '/upload', 10, 405],
      ['POST', '/upload', 101, 413],
    ] as const;
    for (const [method, target, length, status] of refusals) {
      const { invited, response } = await send(method, target, length);
      assert.deepEqual({ invited, status: response.status }, { invited: false, status }, `${method} ${target}`);
      assert.equal(response.headers.connection, 'close', 'the body may still follow: the connection is not reused');
    }
    const { invited, response } = await send('POST', '/upload', 100);
    assert.equal(invited, true, 'a request whose body is read is asked for it');
    assert.deepEqual(JSON.parse(response.body.toString()), { size: 100 });
  });

  it('any other expectation gets 417 with a problem body, after the IP rules; 100-continue along with another too', async () => {
    const ask = (target: string, expect = '200-ok') =>
      exchange(server.url, `POST ${target} HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\nexpect: ${expect}\r\nconnection: close\r\n\r\nhi`);
    const { response } = await ask('/upload');
    assert.equal(response.status, 417);
    assert.equal(response.headers['content-type'], 'application/problem+json');
    assert.match(JSON.parse(response.body.toString()).detail, /100-continue/);
    assert.equal((await ask('/upload/private')).response.status, 403);
    // Node invites the body for any list naming 100-continue; svc meets that expectation alone.
    const both = await ask('/upload', '100-continue, foo');
    assert.equal(both.response.status, 417);
    assert.doesNotMatch(both.raw.toString('latin1'), /^HTTP\/1\.1 100 /);
    assert.equal((await ask('/upload', '100-Continue')).response.status, 200, 'the token is case-insensitive (RFC 9110 §10.1.1)');
  });

  it('arriving on an open connection while the server drains, is answered with Connection: close', async () => {
    const draining = await startApp(
      handApp([
        { method: 'GET', pattern: '/slow', handler: () => new Promise((resolve) => setTimeout(() => resolve('slow'), 300)) },
        { method: 'POST', pattern: '/upload', handler: function (this: Context) { return this.text(); } },
      ]),
    );
    try {
      const { hostname, port } = new URL(draining.url);
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('100 Continue\r\n\r\n') && !received.includes('upload')) socket.write('upload');
      });
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write('GET /slow HTTP/1.1\r\nhost: a\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const drained = drain(draining.server, 5000);
      // Behind the request in flight, so the connection is not idle and stays open for it.
      socket.write('POST /upload HTTP/1.1\r\nhost: a\r\ncontent-length: 6\r\nexpect: 100-continue\r\n\r\n');
      await closed;
      assert.equal(await drained, 'drained');
      assert.match(received, /HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n[^]*?connection: close\r\n[^]*?\r\n\r\nupload$/i);
    } finally {
      await draining.close();
    }
  });
});
