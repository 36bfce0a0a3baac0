import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalPath, wellFormedPrefix } from '../../runtime/routing/canonical-path.ts';

describe('canonicalPath', () => {
  it('returns a path with nothing to change as it is', () => {
    for (const path of ['/', '/users', '/users/42/posts', '/a.b/c-d_e~f', '/é']) {
      assert.equal(canonicalPath(path), path);
    }
  });

  it('cuts the query and the fragment', () => {
    assert.equal(canonicalPath('/users?id=1'), '/users');
    assert.equal(canonicalPath('/users#top'), '/users');
    assert.equal(canonicalPath('/?a=%'), '/');
    assert.equal(canonicalPath('/a#b?c'), '/a');
  });

  it('decodes escapes as UTF-8', () => {
    assert.equal(canonicalPath('/%61dmin'), '/admin');
    assert.equal(canonicalPath('/caf%C3%A9'), '/café');
    assert.equal(canonicalPath('/a%20b'), '/a b');
    assert.equal(canonicalPath('/%e2%82%ac'), '/€');
  });

  it('keeps %2F and %25 escaped, upper-case, so segments stay apart', () => {
    assert.equal(canonicalPath('/files/a%2fb'), '/files/a%2Fb');
    assert.equal(canonicalPath('/files/100%25'), '/files/100%25');
    assert.equal(canonicalPath('/files/%252F'), '/files/%252F');
    assert.equal(canonicalPath('/a%2F..'), '/a%2F..');
  });

  it('resolves dot segments, encoded ones too', () => {
    assert.equal(canonicalPath('/a/./b'), '/a/b');
    assert.equal(canonicalPath('/a/../b'), '/b');
    assert.equal(canonicalPath('/../../admin'), '/admin');
    assert.equal(canonicalPath('/public/%2e%2e/admin'), '/admin');
    assert.equal(canonicalPath('/public/.%2E/admin'), '/admin');
    assert.equal(canonicalPath('/a/%2e'), '/a');
    assert.equal(canonicalPath('/.well-known/x'), '/.well-known/x');
    assert.equal(canonicalPath('/a/...'), '/a/...');
  });

  it('collapses empty segments and drops a trailing slash', () => {
    assert.equal(canonicalPath('//a///b'), '/a/b');
    assert.equal(canonicalPath('/users/'), '/users');
    assert.equal(canonicalPath('/users/?x'), '/users');
    assert.equal(canonicalPath('//'), '/');
  });

  it('takes the path of an absolute-form target (RFC 9112 §3.2.2)', () => {
    assert.equal(canonicalPath('http://example.com/users/42?x=1'), '/users/42');
    assert.equal(canonicalPath('HTTPS://[::1]:8080/a/../%61dmin'), '/admin');
    assert.equal(canonicalPath('http://example.com'), '/');
    assert.equal(canonicalPath('http://example.com?x=/admin'), '/');
    assert.equal(canonicalPath('http://example.com/%zz'), null);
  });

  it('rejects malformed escapes, invalid UTF-8 and targets that are not paths', () => {
    for (const target of ['/foo%', '/users/%E0%A4%A', '/%G1', '/%C0%AF', '/%ED%A0%80', '/%FF', 'users', '', '*', 'ftp://x/a', 'http:/a', 'http//x/a']) {
      assert.equal(canonicalPath(target), null, target);
    }
  });

  it('reads, for the IP rules of a refused target, the canonical path of its segments before the first malformed one', () => {
    assert.equal(wellFormedPrefix('/admin/%ZZ'), '/admin');
    assert.equal(wellFormedPrefix('/%61dmin/./x/%E0%A4%A/y'), '/admin/x');
    assert.equal(wellFormedPrefix('/a/../b/%?q'), '/b');
    assert.equal(wellFormedPrefix('http://host/admin/%ZZ'), '/admin');
    assert.equal(wellFormedPrefix('/foo%'), '/');
    for (const target of ['*', 'example.com:443', '']) assert.equal(wellFormedPrefix(target), '/', target);
  });
});
