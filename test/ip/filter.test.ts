// SPEC §5, rule by rule, on hand-picked cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createIpFilter } from '../../runtime/ip/index.ts';
import { compileIp } from './compile.ts';

const filter = (ip: unknown) => createIpFilter(compileIp(ip));

test('without rules every request is allowed', () => {
  const allowed = filter({ routes: { '/admin': {} } });
  assert.equal(allowed('203.0.113.9', '/admin'), true);
  assert.equal(allowed('not an address', '/'), true);
});

test('a route key covers its path and the paths below it, segment by segment', () => {
  const allowed = filter({ routes: { '/admin': { whitelist: ['127.0.0.1', '::1'] } } });
  assert.equal(allowed('127.0.0.1', '/admin'), true);
  assert.equal(allowed('::1', '/admin/users/7'), true);
  assert.equal(allowed('10.0.0.1', '/admin'), false);
  assert.equal(allowed('10.0.0.1', '/admin/users'), false);
  assert.equal(allowed('10.0.0.1', '/administrator'), true);
  assert.equal(allowed('10.0.0.1', '/'), true);
  assert.equal(allowed('10.0.0.1', '/api/admin'), true);
});

test('IPv4-mapped IPv6 clients are their IPv4 address', () => {
  const allowed = filter({ routes: { '/admin': { whitelist: ['127.0.0.1'] } }, blacklist: ['::ffff:10.0.0.0/104'] });
  assert.equal(allowed('::ffff:127.0.0.1', '/admin'), true);
  assert.equal(allowed('10.9.8.7', '/'), false);
  assert.equal(allowed('::ffff:10.9.8.7', '/'), false);
});

test('the longest key decides first; a route whitelist overrides the global lists', () => {
  const allowed = filter({
    blacklist: ['10.0.0.0/8'],
    routes: {
      '/admin': { whitelist: ['10.1.0.0/16'] },
      '/admin/audit': { blacklist: ['10.1.2.0/24'] },
    },
  });
  assert.equal(allowed('10.1.1.1', '/admin/users'), true); // route whitelist beats the global blacklist
  assert.equal(allowed('10.1.2.3', '/admin/audit'), false); // longer key's blacklist first
  assert.equal(allowed('10.1.3.3', '/admin/audit/log'), true); // longer level passes, /admin allows
  assert.equal(allowed('10.2.0.1', '/admin'), false); // non-empty whitelist without it
  assert.equal(allowed('10.2.0.1', '/public'), false); // global blacklist
  assert.equal(allowed('192.0.2.1', '/public'), true);
});

test('on one level, an address on both lists is denied', () => {
  const allowed = filter({ whitelist: ['192.0.2.0/24'], blacklist: ['192.0.2.66'] });
  assert.equal(allowed('192.0.2.66', '/'), false);
  assert.equal(allowed('192.0.2.65', '/'), true);
  assert.equal(allowed('198.51.100.1', '/'), false);
});

test('a whitelist of one family denies the other family', () => {
  const allowed = filter({ whitelist: ['2001:db8::/32'] });
  assert.equal(allowed('2001:db8:1::5', '/'), true);
  assert.equal(allowed('2001:db9::5', '/'), false);
  assert.equal(allowed('127.0.0.1', '/'), false);
});

test('a "/" key applies to every path before the global lists', () => {
  const allowed = filter({ blacklist: ['0.0.0.0/0'], routes: { '/': { whitelist: ['192.0.2.1'] } } });
  assert.equal(allowed('192.0.2.1', '/'), true);
  assert.equal(allowed('192.0.2.1', '/a/b'), true);
  assert.equal(allowed('192.0.2.2', '/a/b'), false);
});

test('an address that does not parse passes no level that has a list', () => {
  const allowed = filter({ routes: { '/admin': { whitelist: ['127.0.0.1'] }, '/shop': { blacklist: ['192.0.2.0/24'] } } });
  assert.equal(allowed('bogus', '/'), true);
  assert.equal(allowed('bogus', '/admin'), false);
  assert.equal(allowed('bogus', '/shop/cart'), false);
  assert.equal(allowed('127.000.000.001', '/admin'), false);
  assert.equal(filter({ blacklist: ['203.0.113.0/24'] })('', '/'), false);
});
