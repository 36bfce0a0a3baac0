// The generated `match` on hand-written tables: each SPEC §3/§4 matching rule once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadDispatcher, loadModule, route, table } from './fixtures.ts';

const found = (route: number, ...params: unknown[]) => ({ kind: 'found', route, params });
const notAllowed = (...allow: string[]) => ({ kind: 'method-not-allowed', allow });
const notFound = { kind: 'not-found' };

describe('generated match', () => {
  it('prefers a literal segment to a placeholder whatever the registration order', () => {
    const match = loadDispatcher(table(['GET /users/{id}', 'GET /users/new', 'GET /{a}/{b}/edit', 'GET /users/{id}/edit']));
    assert.deepEqual(match('GET', '/users/new'), found(1));
    assert.deepEqual(match('GET', '/users/42'), found(0, '42'));
    assert.deepEqual(match('GET', '/users/42/edit'), found(3, '42'));
    assert.deepEqual(match('GET', '/posts/42/edit'), found(2, 'posts', '42'));
  });

  it('answers with results no caller can change for the next one', () => {
    const match = loadDispatcher(table(['GET /a', 'POST /b/{x}', 'PUT /b/c']));
    for (const [method, path] of [['GET', '/a'], ['GET', '/b/c'], ['GET', '/b/x/y'], ['GET', '/zz'], ['GET', '/b/7']]) {
      const result = match(method!, path!) as Record<string, unknown>;
      const before = structuredClone(result);
      const list = (result.params ?? result.allow) as unknown[] | undefined;
      assert.throws(() => void (result.kind = 'changed'), TypeError, `${method} ${path}`);
      if (list) assert.throws(() => list.push('changed'), TypeError, `${method} ${path}`);
      assert.deepEqual(match(method!, path!), before, `${method} ${path}`);
    }
  });

  it('backtracks to the placeholder when the literal branch fails deeper', () => {
    const match = loadDispatcher(table(['GET /users/new/form', 'GET /users/{id}/posts']));
    assert.deepEqual(match('GET', '/users/new/posts'), found(1, 'new'));
    assert.deepEqual(match('GET', '/users/new/form'), found(0));
    assert.deepEqual(match('GET', '/users/new/other'), notFound);
  });

  it('matches per method, HEAD through GET', () => {
    const match = loadDispatcher(table(['GET /users/new', 'POST /users/{id}', 'GET /users/{id}/a/b', 'DELETE /users/{id}/{x}/b']));
    assert.deepEqual(match('POST', '/users/new'), found(1, 'new'));
    assert.deepEqual(match('HEAD', '/users/new'), found(0));
    assert.deepEqual(match('DELETE', '/users/7/a/b'), found(3, '7', 'a'));
    assert.deepEqual(match('HEAD', '/users/7/a/b'), found(2, '7'));
  });

  it('tells a path under other methods (405 with the allow list) from an unknown path', () => {
    const match = loadDispatcher(table(['GET /users/new', 'POST /users/{id}', 'PUT /users/{id}/{x}', 'DELETE /users/{id}/b']));
    assert.deepEqual(match('PATCH', '/users/new'), notAllowed('GET', 'HEAD', 'OPTIONS', 'POST'));
    assert.deepEqual(match('OPTIONS', '/users/7'), notAllowed('OPTIONS', 'POST'));
    assert.deepEqual(match('GET', '/users/7/b'), notAllowed('DELETE', 'OPTIONS', 'PUT'));
    assert.deepEqual(match('GET', '/users'), notFound);
    assert.deepEqual(match('GET', '/'), notFound);
    assert.deepEqual(match('get', '/users/new'), notAllowed('GET', 'HEAD', 'OPTIONS', 'POST'));
  });

  it('answers a registered OPTIONS route and counts it in 405s', () => {
    const match = loadDispatcher(table(['OPTIONS /cors/{x}', 'GET /']));
    assert.deepEqual(match('OPTIONS', '/cors/a'), found(0, 'a'));
    assert.deepEqual(match('GET', '/cors/a'), notAllowed('OPTIONS'));
    assert.deepEqual(match('POST', '/'), notAllowed('GET', 'HEAD', 'OPTIONS'));
  });

  it('matches an optional last placeholder with and without its segment', () => {
    const match = loadDispatcher(table(['GET /profile/{name?}', 'GET /users/{id}/posts/{page?}', 'GET /{lang?}']));
    assert.deepEqual(match('GET', '/profile'), found(0, undefined));
    assert.deepEqual(match('GET', '/profile/ann'), found(0, 'ann'));
    assert.deepEqual(match('GET', '/users/1/posts'), found(1, '1', undefined));
    assert.deepEqual(match('GET', '/users/1/posts/2'), found(1, '1', '2'));
    assert.deepEqual(match('GET', '/'), found(2, undefined));
    assert.deepEqual(match('GET', '/fr'), found(2, 'fr'));
  });

  it('decodes %2F and %25 in a captured segment', () => {
    const tags = route(1, 'GET', [
      { kind: 'literal', value: 'tags' },
      { kind: 'param', name: 'tag', optional: false, type: { kind: 'enum', values: ['a/b', '100%'] } },
    ]);
    const match = loadDispatcher([...table(['GET /files/{name}']), tags]);
    assert.deepEqual(match('GET', '/files/a%2Fb%25c%252F'), found(0, 'a/b%c%2F'));
    assert.deepEqual(match('GET', '/tags/a%2Fb'), found(1, 'a/b'));
    assert.deepEqual(match('GET', '/tags/100%25'), found(1, '100%'));
  });

  it('converts number placeholders and rejects what does not fit', () => {
    const match = loadDispatcher(table(['GET /items/{id:number}', 'GET /items/{id:number}/{qty?:number}']));
    for (const [text, value] of [['42', 42], ['-7', -7], ['0.25', 0.25], ['0', 0], ['9007199254740991', 2 ** 53 - 1]] as const) {
      assert.deepEqual(match('GET', `/items/${text}`), found(0, value));
    }
    // One value, one path: other spellings of a number, and digits a double cannot hold, do not fit.
    const spellings = ['007', '1.0', '-0', '1.00000000000000001', '99999999999999999999', 'Infinity', 'NaN', '1e3'];
    for (const text of ['abc', '+1', '0x1f', '1.', '.5', '-', '1.2.3', ' 1', '', '9'.repeat(400), ...spellings]) {
      assert.deepEqual(match('GET', `/items/${text}`), { kind: 'bad-param', route: 0, param: 'id', expected: 'a number' }, text);
    }
    assert.deepEqual(match('GET', '/items/3/x'), { kind: 'bad-param', route: 1, param: 'qty', expected: 'a number' });
    assert.deepEqual(match('GET', '/items/3/2'), found(1, 3, 2));
  });

  it('checks enum placeholders', () => {
    const match = loadDispatcher(table(['GET /issues/{state:open|closed}']));
    assert.deepEqual(match('GET', '/issues/open'), found(0, 'open'));
    assert.deepEqual(match('GET', '/issues/all'), { kind: 'bad-param', route: 0, param: 'state', expected: 'one of open, closed' });
  });

  it('prefers a literal to a typed placeholder, and checks the type only once the route is chosen', () => {
    const match = loadDispatcher(table(['GET /users/{id:number}', 'GET /users/me', 'GET /{a}/{b}']));
    assert.deepEqual(match('GET', '/users/me'), found(1));
    assert.deepEqual(match('GET', '/users/ann'), { kind: 'bad-param', route: 0, param: 'id', expected: 'a number' });
    assert.deepEqual(match('GET', '/posts/ann'), found(2, 'posts', 'ann'));
  });

  it('exports match(), which reads a path as a request gives it, as the server does', () => {
    const { match } = loadModule(table(['GET /users/{id}', 'GET /users', 'GET /files/{name}']));
    assert.deepEqual(match('GET', '/users/'), found(1));
    assert.deepEqual(match('GET', '/users?page=2'), found(1));
    assert.deepEqual(match('GET', '/users/caf%C3%A9/'), found(0, 'café'));
    assert.deepEqual(match('GET', '//users/./x/../42#top'), found(0, '42'));
    assert.deepEqual(match('GET', '/files/a%2Fb'), found(2, 'a/b'));
    assert.deepEqual(match('GET', '/users/%E0%A4%A'), notFound);
    assert.deepEqual(match('GET', 'users'), notFound);
  });

  it('reads boolean placeholders from true and false, and checks unions of number literals', () => {
    const match = loadDispatcher(table(['GET /flags/{on:boolean}', 'GET /pages/{n:1|2|10}']));
    assert.deepEqual(match('GET', '/flags/true'), found(0, true));
    assert.deepEqual(match('GET', '/flags/false'), found(0, false));
    assert.deepEqual(match('GET', '/flags/yes'), { kind: 'bad-param', route: 0, param: 'on', expected: 'true or false' });
    assert.deepEqual(match('GET', '/pages/10'), found(1, 10));
    assert.deepEqual(match('GET', '/pages/3'), { kind: 'bad-param', route: 1, param: 'n', expected: 'one of 1, 2, 10' });
  });

  it('names the function of a subtree apart from the module\'s own (a subtree at /canonical is not matchCanonical)', () => {
    const lines = ['segments', 'canonical'].flatMap((top) => Array.from({ length: 20 }, (_, i) => `GET /${top}/p${i}/{x}`));
    const dispatcher = loadModule(table(lines));
    assert.deepEqual(dispatcher.match('GET', '/canonical/p7/y'), found(27, 'y'));
    assert.deepEqual(dispatcher.match('GET', '/segments/p3/z'), found(3, 'z'));
  });

  it('is case-sensitive and answers an empty table with not-found', () => {
    assert.deepEqual(loadDispatcher(table(['GET /Users']))('GET', '/users'), notFound);
    assert.deepEqual(loadDispatcher([])('GET', '/'), notFound);
  });
});
