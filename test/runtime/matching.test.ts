// SPEC §4 matching rules, over real HTTP against the pipeline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';

describe('matching', () => {
  let server: Running;
  before(async () => {
    server = await startApp(
      handApp([
        { method: 'GET', pattern: '/users/{id}', handler: (id: string) => ({ route: 'placeholder', id }) },
        { method: 'GET', pattern: '/users/new', handler: () => ({ route: 'literal' }) },
        { method: 'POST', pattern: '/users', handler: () => 'created' },
        { method: 'GET', pattern: '/Case', handler: () => 'upper' },
        { method: 'GET', pattern: '/files/{name}', handler: (name: string) => ({ name }) },
        { method: 'GET', pattern: '/profile/{name?}', handler: (name?: string) => ({ name: name ?? null }) },
        { method: 'GET', pattern: '/b', handler: () => 'b' },
        { method: 'GET', pattern: '/', handler: () => 'home' },
        { method: 'GET', pattern: '/items/{id}', numbers: ['id'], handler: (id: number) => ({ id, type: typeof id }) },
        { method: 'OPTIONS', pattern: '/cors', handler: () => 'custom options' },
        { method: 'GET', pattern: '/cors', handler: () => 'cors' },
        { method: 'GET', pattern: '/where', handler: function (this: Context) { return { path: this.path, url: this.url }; } },
      ]),
    );
  });
  after(() => server.close());

  const json = async (target: string) => {
    const res = await raw(server.url, target);
    return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
  };

  it('prefers a literal segment over a placeholder, whatever the registration order', async () => {
    assert.deepEqual((await json('/users/new')).body, { route: 'literal' });
    assert.deepEqual((await json('/users/42')).body, { route: 'placeholder', id: '42' });
  });

  it('is case-sensitive', async () => {
    assert.equal((await raw(server.url, '/Case')).body, 'upper');
    assert.equal((await raw(server.url, '/case')).status, 404);
  });

  it('ignores the query string and a trailing slash', async () => {
    assert.deepEqual((await json('/users/7?x=1&y=2')).body, { route: 'placeholder', id: '7' });
    assert.deepEqual((await json('/users/7/')).body, { route: 'placeholder', id: '7' });
    assert.deepEqual((await json('/where/?q=1')).body, { path: '/where', url: '/where/?q=1' });
  });

  it('percent-decodes placeholders, %2F included, without splitting the segment', async () => {
    assert.deepEqual((await json('/files/caf%C3%A9%20au%20lait')).body, { name: 'café au lait' });
    assert.deepEqual((await json('/files/a%2Fb')).body, { name: 'a/b' });
    assert.deepEqual((await json('/files/100%25')).body, { name: '100%' });
    assert.deepEqual((await json('/%75sers/new')).body, { route: 'literal' });
  });

  it('answers 400, never 500, for malformed escapes', async () => {
    for (const target of ['/users/%E0%A4%A', '/foo%', '/users/%zz', '/files/%C3%28']) {
      const res = await raw(server.url, target);
      assert.equal(res.status, 400, target);
      assert.equal(res.headers['content-type'], 'application/problem+json');
      assert.equal(JSON.parse(res.body).status, 400);
    }
  });

  it('resolves dot segments and empty segments before matching', async () => {
    assert.equal((await raw(server.url, '/a/../b')).body, 'b');
    assert.equal((await raw(server.url, '/a/%2E%2E/b')).body, 'b');
    assert.equal((await raw(server.url, '//b')).body, 'b');
    assert.equal((await raw(server.url, '//x')).status, 404);
  });

  it('matches optional placeholders with and without the segment', async () => {
    assert.deepEqual((await json('/profile')).body, { name: null });
    assert.deepEqual((await json('/profile/ann')).body, { name: 'ann' });
  });

  it('answers 404 with problem+json for an unknown path', async () => {
    const res = await raw(server.url, '/nope');
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    const problem = JSON.parse(res.body);
    assert.equal(problem.type, 'about:blank');
    assert.equal(problem.title, 'Not Found');
    assert.equal(problem.status, 404);
    assert.match(problem.detail, /GET \/nope/);
  });

  it('answers 405 with Allow when the path exists under other methods', async () => {
    const res = await raw(server.url, '/users', { method: 'DELETE' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.allow, 'OPTIONS, POST');
    assert.equal(JSON.parse(res.body).status, 405);
    const get = await raw(server.url, '/users');
    assert.equal(get.status, 405);
  });

  it('answers HEAD with the GET route: same headers, no body', async () => {
    const get = await raw(server.url, '/users/42');
    const head = await raw(server.url, '/users/42', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-type'], get.headers['content-type']);
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(get.body)));
  });

  it('answers OPTIONS without an OPTIONS route with 204 and Allow', async () => {
    const res = await raw(server.url, '/users/42', { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(res.body, '');
    assert.equal((await raw(server.url, '/cors', { method: 'OPTIONS' })).body, 'custom options');
    assert.equal((await raw(server.url, '/nope', { method: 'OPTIONS' })).status, 404);
  });

  it('answers OPTIONS * (asterisk-form) with 204 and every method the application takes; any other method on * with 400', async () => {
    const res = await raw(server.url, '*', { method: 'OPTIONS' });
    assert.equal(res.status, 204);
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS, POST');
    const get = await raw(server.url, '*');
    assert.equal(get.status, 400);
    assert.equal((JSON.parse(get.body) as { detail: string }).detail, 'The request target * (asterisk-form) is for OPTIONS only, not GET.');
    const denied = await startApp(handApp([{ method: 'DELETE', pattern: '/x', handler: () => null }]), { ipFilter: () => false });
    try {
      assert.equal((await raw(denied.url, '*', { method: 'OPTIONS' })).status, 403, 'the global IP rules come first');
    } finally {
      await denied.close();
    }
  });

  it('answers 400 naming the parameter when a typed placeholder does not fit', async () => {
    assert.deepEqual((await json('/items/12')).body, { id: 12, type: 'number' });
    const res = await json('/items/twelve');
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /"id"/);
  });

  it('serves the root path', async () => {
    assert.equal((await raw(server.url, '/')).body, 'home');
    assert.equal((await raw(server.url, '/?x')).body, 'home');
  });
});
