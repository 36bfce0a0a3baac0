// RateLimitKnots over HTTP, on the test clock (no sleeping): fixed windows per client
// address and per middleware entry, the headers on every response, 429 rendered like any
// error, and the cap on tracked addresses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addressFromHeader, clock, get, startFixture } from '../support/knots.ts';
import { raw, type Running } from '../support/server.ts';

describe('RateLimitKnots', () => {
  let server: Running;
  before(async () => {
    server = await startFixture('rate-limit', { clientAddress: addressFromHeader });
  });
  after(() => server.close());

  const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-test-ip': ip, ...extra });

  it('counts a fixed window per client, shared by the routes of its group, and answers 429 past the limit', async () => {
    const start = clock.now;
    const first = await get(server, '/two/a', from('10.0.0.1'));
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    assert.equal(first.headers['x-ratelimit-reset'], undefined);

    const second = await get(server, '/two/b', from('10.0.0.1'));
    assert.equal(second.headers['x-ratelimit-remaining'], '0');

    clock.now = start + 20_000;
    const refused = await get(server, '/two/a', from('10.0.0.1'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['content-type'], 'application/problem+json');
    assert.equal(JSON.parse(refused.body).status, 429);
    assert.equal(refused.headers['retry-after'], '40');
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-reset'], String((start + 60_000) / 1000));

    const page = await get(server, '/two/b', from('10.0.0.1', { accept: 'text/html' }));
    assert.equal(page.status, 429);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.equal(page.headers['retry-after'], '40');

    assert.equal((await get(server, '/two/a', from('10.0.0.2'))).status, 200, 'another address has its own window');

    clock.now = start + 59_999;
    assert.equal((await get(server, '/two/a', from('10.0.0.1'))).headers['retry-after'], '1');
    clock.now = start + 60_000;
    const reopened = await get(server, '/two/a', from('10.0.0.1'));
    assert.equal(reopened.status, 200);
    assert.equal(reopened.headers['x-ratelimit-remaining'], '1');
  });

  it('closes a window opened before the clock was set back, instead of refusing for the step too', async () => {
    const ip = from('10.0.3.1');
    const start = clock.now;
    await get(server, '/two/a', ip);
    await get(server, '/two/a', ip);
    assert.equal((await get(server, '/two/a', ip)).status, 429);
    clock.now = start - 3_600_000; // NTP steps the clock back an hour
    try {
      const after = await get(server, '/two/a', ip);
      assert.equal(after.status, 200, `refused with Retry-After ${after.headers['retry-after']}`);
      assert.equal(after.headers['x-ratelimit-remaining'], '1');
    } finally {
      clock.now = start;
    }
  });

  it('gives each middleware entry its own counters', async () => {
    const ip = from('10.0.1.1');
    await get(server, '/two/a', ip);
    await get(server, '/two/a', ip);
    assert.equal((await get(server, '/two/a', ip)).status, 429);
    const other = await get(server, '/other/a', ip);
    assert.equal(other.status, 200);
    assert.equal(other.headers['x-ratelimit-remaining'], '1');
  });

  it("puts its headers on the handler's error responses too", async () => {
    const res = await get(server, '/two/conflict', from('10.0.2.1'));
    assert.equal(res.status, 409);
    assert.equal(res.headers['x-ratelimit-limit'], '2');
    assert.equal(res.headers['x-ratelimit-remaining'], '1');
  });

  it('counts a request refused before its handler (a body over the limit, a coding svc cannot read) and answers it with the headers', async () => {
    const ip = '10.0.2.2';
    const post = (headers: Record<string, string>, body: string | string[]) => raw(server.url, '/two/upload', { method: 'POST', headers: from(ip, headers), body });
    const declared = await post({ 'content-type': 'text/plain' }, 'x'.repeat(65));
    assert.equal(declared.status, 413);
    assert.equal(declared.headers['x-ratelimit-limit'], '2');
    assert.equal(declared.headers['x-ratelimit-remaining'], '1');
    const chunked = await post({ 'transfer-encoding': 'chunked' }, ['x'.repeat(40), 'x'.repeat(40)]);
    assert.equal(chunked.status, 413);
    assert.equal(chunked.headers['x-ratelimit-remaining'], '0');
    assert.equal((await post({}, 'fits')).status, 429, 'both were counted');
  });

  it('answers an unreadable coding with 501 and the headers', async () => {
    const res = await raw(server.url, '/two/upload', { method: 'POST', headers: from('10.0.2.3', { 'transfer-encoding': 'gzip, chunked' }), body: 'x' });
    assert.equal(res.status, 501);
    assert.equal(res.headers['x-ratelimit-remaining'], '1');
    assert.equal((await raw(server.url, '/two/upload', { method: 'POST', headers: from('10.0.2.3'), body: 'fits' })).body, '4');
  });

  it('counts whom a subclass names with clientKey(), here an API key whatever the address', async () => {
    assert.equal((await get(server, '/keyed', from('10.0.3.1', { 'x-api-key': 'one' }))).status, 200);
    assert.equal((await get(server, '/keyed', from('10.0.3.2', { 'x-api-key': 'one' }))).status, 429, 'the same key from another address');
    assert.equal((await get(server, '/keyed', from('10.0.3.1', { 'x-api-key': 'two' }))).status, 200);
  });

  it('reports the tighter of nested limits, so a 429 never claims requests remain', async () => {
    const ip = from('10.0.4.1');
    const first = await get(server, '/nested/strict', ip);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    await get(server, '/nested/strict', ip);
    const refused = await get(server, '/nested/strict', ip);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['x-ratelimit-limit'], '2');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['retry-after'], '60');
  });

  it('defaults to 60 requests per 60 s', async () => {
    const res = await get(server, '/default', from('10.0.3.1'));
    assert.equal(res.headers['x-ratelimit-limit'], '60');
    assert.equal(res.headers['x-ratelimit-remaining'], '59');
  });

  it('counts a request once when its one instance is listed by a group and again by an inner group', async () => {
    assert.equal((await get(server, '/twice', from('10.0.4.1'))).headers['x-ratelimit-remaining'], '59');
    assert.equal((await get(server, '/twice', from('10.0.4.1'))).headers['x-ratelimit-remaining'], '58');
  });

  it('tracks at most maxClients addresses: past the cap the oldest window is dropped', async () => {
    for (const ip of ['10.1.0.1', '10.1.0.2', '10.1.0.3']) assert.equal((await get(server, '/capped', from(ip))).status, 200);
    assert.equal((await get(server, '/capped', from('10.1.0.3'))).status, 429);
    assert.equal((await get(server, '/capped', from('10.1.0.4'))).status, 200); // drops 10.1.0.1's window
    assert.equal((await get(server, '/capped', from('10.1.0.1'))).status, 200, 'forgotten: starts afresh');
    assert.equal((await get(server, '/capped', from('10.1.0.4'))).status, 429, 'still tracked');
  });

  it('logs the 429s', async () => {
    assert.match((await server.logLines()).join('\n'), /\[429\] GET \/two\/a 429 from 10\.0\.0\.1/);
  });
});
