// What `.svc/ip-tables.json` holds: merged, sorted ranges a person can read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileIp } from './compile.ts';

test('CIDRs become merged ranges, mapped IPv6 is folded, single addresses stay plain', () => {
  const tables = compileIp({
    whitelist: ['10.0.0.128/25', '10.0.0.0/25', '10.0.1.0/24', '::ffff:192.168.0.0/112', '192.168.0.7', '2001:db8::/32', '::1', '2001:db8:ffff::/48'],
    blacklist: ['0.0.0.0/0'],
  });
  assert.deepEqual(tables.global.whitelist, {
    v4: ['10.0.0.0-10.0.1.255', '192.168.0.0-192.168.255.255'],
    v6: ['::1', '2001:db8::-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  });
  assert.deepEqual(tables.global.blacklist, { v4: ['0.0.0.0-255.255.255.255'], v6: [] });
});

test('route levels are keyed by normalised path, longest first', () => {
  const tables = compileIp({ routes: { 'api': { blacklist: ['::/0'] }, '/admin/audit/': {}, '/admin': { whitelist: ['127.0.0.1'] }, '/': {} } });
  assert.deepEqual(Object.keys(tables.routes), ['/admin/audit', '/admin', '/api', '/']);
  assert.deepEqual(tables.routes['/api'], { whitelist: { v4: [], v6: [] }, blacklist: { v4: [], v6: ['::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] } });
});

test('the same rules in another order compile to the same tables', () => {
  const a = compileIp({ whitelist: ['10.0.0.1', '10.0.0.0/31', '::2'], routes: { '/b': {}, '/a': {} } });
  const b = compileIp({ whitelist: ['::2', '10.0.0.0/31', '10.0.0.1'], routes: { '/a': {}, '/b': {} } });
  assert.equal(JSON.stringify(a), JSON.stringify(b));
});
