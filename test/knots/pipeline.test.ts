// Middleware in the pipeline, through the real compiler and a real server: group
// middleware runs outer first, can short-circuit, gets its entry's parameters once, and
// a throwing middleware is a 500 that outer middleware still see.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { get, startFixture } from '../support/knots.ts';
import type { Running } from '../support/server.ts';

describe('knots in the pipeline', () => {
  let server: Running;
  before(async () => {
    server = await startFixture('pipeline');
  });
  after(() => server.close());

  it('runs group middleware outer first, and unwinds inner first', async () => {
    const res = await get(server, '/outer/inner/trail', { 'x-open': 'yes' });
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body).wayIn, ['outer', 'inner']);
    assert.equal(res.headers['x-way-out'], 'inner,outer');
  });

  it('lets a middleware short-circuit: neither the handler nor inner middleware run, outer ones still see the answer', async () => {
    const handledBefore = JSON.parse((await get(server, '/handled')).body).handled;
    const res = await get(server, '/outer/inner/trail');
    assert.equal(res.status, 418);
    assert.equal(res.body, 'closed by Gate');
    assert.equal(res.headers['x-way-out'], 'inner,outer');
    assert.equal(JSON.parse((await get(server, '/handled')).body).handled, handledBefore);
  });

  it('passes the entry parameters to the constructor once, at start-up, shared by the group', async () => {
    const a = await get(server, '/counted/a');
    const b = await get(server, '/counted/b');
    const again = await get(server, '/counted/a');
    for (const res of [a, b, again]) assert.deepEqual(JSON.parse(String(res.headers['x-counted'])), ['alpha', 3, { loud: true }, 1]);
  });

  it('answers 500 for a throwing middleware without its message, logs it, and keeps serving', async () => {
    const res = await get(server, '/outer/explodes');
    assert.equal(res.status, 500);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.doesNotMatch(res.body, /secret failure/);
    assert.equal(res.headers['x-way-out'], 'last,outer', 'outer middleware see the error response');
    const html = await get(server, '/outer/explodes', { accept: 'text/html' });
    assert.equal(html.status, 500);
    assert.match(String(html.headers['content-type']), /^text\/html/);
    assert.match((await server.logLines()).join('\n'), /\[500\] GET \/outer\/explodes 500 .*Error: secret failure inside a knot/);
    assert.equal((await get(server, '/counted/a')).status, 200);
  });

  it('answers 500 when a middleware calls next() twice: the handler and inner knots run once', async () => {
    const before = JSON.parse((await get(server, '/handled')).body).handled;
    const res = await get(server, '/twice');
    assert.equal(res.status, 500);
    assert.equal(JSON.parse((await get(server, '/handled')).body).handled, before + 1);
    assert.match((await server.logLines()).join('\n'), /\[500\] GET \/twice 500 .*next\(\) called more than once by NextTwice/);
  });

  it('sends the headers a middleware sets with ctx.header(), before or after next(), on every answer', async () => {
    for (const [path, status] of [['/headed/ok', 200], ['/headed/fails', 409], ['/headed/answer', 200]] as const) {
      const res = await get(server, path);
      assert.equal(res.status, status, path);
      assert.equal(res.headers['x-late'], 'yes', path);
      // A header the answer carries itself is not overridden.
      assert.equal(res.headers['x-early'], path === '/headed/answer' ? 'from the response' : 'yes', path);
    }
  });

  it("shows middleware a handler's HttpError as its error response, headers included", async () => {
    const res = await get(server, '/outer/handler-aborts');
    assert.equal(res.status, 409);
    assert.equal(res.headers['x-why'], 'test');
    assert.equal(res.headers['x-way-out'], 'aborts,outer');
    assert.equal(JSON.parse(res.body).detail, 'conflict from the handler');
  });
});
