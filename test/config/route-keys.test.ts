// An `ip.routes` key can name any route (SPEC §5: the key equals the path or is a
// segment prefix of it), so route literals with non-ASCII characters (`/über-uns`) can
// have rules of their own; the build, the shipped schema and the filter all agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseConfig } from '../../compiler/config/index.ts';
import { formatDiagnostics } from '../../compiler/diagnostics.ts';
import { createIpFilter } from '../../runtime/ip/index.ts';
import { canonicalPath } from '../../runtime/routing/canonical-path.ts';
import { compileIp } from '../ip/compile.ts';
import { repoRoot } from '../support/project.ts';

const schema = JSON.parse(await readFile(join(repoRoot, 'svc.schema.json'), 'utf8')) as object;
const fitsSchema = new Ajv2020({ strict: true }).compile(schema);
const withKey = (key: string) => ({ ip: { routes: { [key]: { whitelist: ['10.0.0.1'] } } } });
const buildErrors = (key: string): string => formatDiagnostics(parseConfig(JSON.stringify(withKey(key))).diagnostics);

test('non-ASCII keys are accepted by svc build and by the shipped schema', () => {
  for (const key of ['/über-uns', 'café/menü/', '/東京', '/😀']) {
    assert.equal(buildErrors(key), '', key);
    assert.ok(fitsSchema(withKey(key)), `${key}: ${JSON.stringify(fitsSchema.errors)}`);
  }
});

test('keys that never meet a canonical path are still refused', () => {
  for (const key of ['/%C3%BCber', '/a/../b', '/x/{id}', '/a?b', '/a#b', '/tab\there', '']) {
    assert.match(buildErrors(key), /SVC007/, key);
    assert.equal(fitsSchema(withKey(key)), false, key);
  }
});

test('a key with a space guards the route of that name (requests reach it as %20)', () => {
  assert.equal(buildErrors('/a b'), '');
  assert.equal(fitsSchema(withKey('/a b')), true);
  const allowed = createIpFilter(compileIp(withKey('/a b').ip));
  assert.equal(allowed('10.0.0.2', canonicalPath('/a%20b/c')!), false);
  assert.equal(allowed('10.0.0.1', canonicalPath('/a%20b')!), true);
});

test('a non-ASCII key guards its path, however the request escapes it', () => {
  const allowed = createIpFilter(compileIp(withKey('/über-uns').ip));
  const path = (target: string) => canonicalPath(target)!;
  assert.equal(allowed('10.0.0.2', path('/%C3%BCber-uns/team')), false);
  assert.equal(allowed('10.0.0.2', path('/x/../%C3%BCber-uns')), false);
  assert.equal(allowed('10.0.0.1', path('/%C3%BCber-uns/team')), true);
  assert.equal(allowed('10.0.0.2', path('/%C3%BCber')), true);
});

test('a "*" in a key is a warning: it is no wildcard, and the key would guard nothing it seems to', () => {
  assert.equal(
    buildErrors('/admin/*'),
    'svc.json:1:18 - warning SVC007: ip.routes./admin/*: "*" is no wildcard: it matches only a "*" in the URL. A key covers its path and every path below it: "/admin" is probably what you mean',
  );
  assert.match(buildErrors('/*'), /warning SVC007: ip\.routes\.\/\*: .*"\/" is probably what you mean/);
  assert.ok(parseConfig(JSON.stringify(withKey('/admin*'))).diagnostics.every((d) => d.severity === 'warning'));
  // Matched as the character it is, as a route may have it literally.
  const allowed = createIpFilter(compileIp(withKey('/admin/*').ip));
  assert.equal(allowed('10.0.0.2', canonicalPath('/admin/users')!), true);
  assert.equal(allowed('10.0.0.2', canonicalPath('/admin/*')!), false);
  assert.equal(buildErrors('/admin'), '');
});
