// CONNECT: node hands it to a 'connect' listener with the raw socket instead of the
// request listener. svc is no proxy, but the request still meets the IP rules, gets a
// problem+json answer like any request no route serves, and a line in svc.log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { handApp } from '../support/hand-app.ts';
import { startApp, type Running } from '../support/server.ts';
import { exchange } from './raw-http.ts';

const BLOCKED = 'x-test-blocked';

describe('CONNECT', () => {
  let server: Running;
  before(async () => {
    // The filter sees only address and path; a test address per request would need other
    // loopback sources, so the client address rule reads the test header instead.
    server = await startApp(handApp([{ method: 'GET', pattern: '/a', handler: () => 'a' }]), {
      clientAddress: (req) => (req.headers[BLOCKED] === undefined ? '127.0.0.1' : '203.0.113.9'),
      ipFilter: (address) => address !== '203.0.113.9',
    });
  });
  after(() => server.close());

  // The Host of a CONNECT is its target (RFC 9110 §9.3.6); a path target has none of its own.
  const connect = (target: string, headers = '') =>
    exchange(server.url, `CONNECT ${target} HTTP/1.1\r\nhost: ${target.startsWith('/') ? 'localhost' : target}\r\n${headers}\r\n`);

  it('answers a host:port target with 400 problem+json, closes the connection and logs the request', async () => {
    const { response } = await connect('example.com:443');
    assert.equal(response.status, 400);
    assert.equal(response.headers['content-type'], 'application/problem+json');
    assert.equal(response.headers.connection, 'close');
    const problem = JSON.parse(response.body.toString('utf8'));
    assert.equal(problem.status, 400);
    assert.equal(problem.detail, 'CONNECT asks for a proxy tunnel, and this server is no proxy.');
    assert.match(problem.requestId, /^[0-9a-f-]{36}$/);
    const lines = await server.logLines();
    assert.ok(lines.some((line) => line.includes(`[400] CONNECT example.com:443 400 from 127.0.0.1 (request ${problem.requestId})`)), lines.join('\n'));
  });

  it('refuses a client the IP rules deny with 403, and logs it', async () => {
    const { response } = await connect('example.com:443', `${BLOCKED}: 1\r\n`);
    assert.equal(response.status, 403);
    assert.equal(response.headers['content-type'], 'application/problem+json');
    const lines = await server.logLines();
    assert.ok(lines.some((line) => line.includes('[403] CONNECT example.com:443 403 from 203.0.113.9')), lines.join('\n'));
  });

  it('answers a path target as any method the path does not serve: 405 with Allow, or 404', async () => {
    const allowed = await connect('/a');
    assert.equal(allowed.response.status, 405);
    assert.equal(allowed.response.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal((await connect('/nowhere')).response.status, 404);
  });
});
