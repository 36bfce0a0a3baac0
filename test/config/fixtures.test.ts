// One folder per svc.json problem under test/fixtures/config/: its svc.json, and in
// expected.txt exactly what `svc build` prints about it (empty for a valid file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig, parseConfig } from '../../compiler/config/index.ts';
import { formatDiagnostics } from '../../compiler/diagnostics.ts';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

const fixtures = join(repoRoot, 'test', 'fixtures', 'config');

for (const name of (await readdir(fixtures)).sort()) {
  test(`svc.json fixture: ${name}`, async () => {
    const { config, diagnostics } = await loadConfig(join(fixtures, name));
    const expected = await readFile(join(fixtures, name, 'expected.txt'), 'utf8');
    assert.equal(formatDiagnostics(diagnostics), expected.trimEnd());
    assert.ok(diagnostics.every((d) => d.code === 'SVC007'));
    // Only a file that is not JSON at all leaves no config to keep checking with.
    assert.equal(config === null, name === 'invalid-json' || name === 'comments');
  });
}

test("the repository's own svc.json is valid", async () => {
  const { config, diagnostics } = await loadConfig(repoRoot);
  assert.equal(formatDiagnostics(diagnostics), '');
  assert.deepEqual(config?.ip.routes['/admin']?.whitelist, ['127.0.0.1', '::1']);
});

test('a missing svc.json means the defaults', async () => {
  const { config, diagnostics } = await loadConfig(join(fixtures, 'no-such-project'));
  assert.deepEqual(diagnostics, []);
  assert.equal(config?.server.port, 6916);
  assert.equal(config?.endpoints.docs, 'svc/docs');
  // SPEC §6 shows `/admin` open to loopback only; that is the default.
  assert.deepEqual(config?.ip.routes, { '/admin': { whitelist: ['127.0.0.1', '::1'], blacklist: [] } });
});

test('ip.routes, when given, replaces the default: {} has no per-path rules', () => {
  assert.deepEqual(parseConfig('{ "ip": { "routes": {} } }').config?.ip.routes, {});
  assert.deepEqual(parseConfig('{ "ip": { "blacklist": ["192.0.2.1"] } }').config?.ip.routes, {
    '/admin': { whitelist: ['127.0.0.1', '::1'], blacklist: [] },
  });
});

test('a valid file yields its values with paths normalised and defaults filled in', async () => {
  const { config } = await loadConfig(join(fixtures, 'valid'));
  assert.deepEqual(config?.endpoints, { docs: 'internal/docs', health: 'healthz', dashboard: 'svc/dashboard', metrics: 'svc/metrics', guarded: true });
  assert.deepEqual(Object.keys(config?.ip.routes ?? {}), ['/admin', '/admin/reports']);
  assert.deepEqual(config?.ip.routes['/admin/reports'], { whitelist: [], blacklist: ['127.0.0.1'] });
  assert.deepEqual(config?.health.services[1], { name: 'search', host: '10.0.0.12', port: 9200 });
  assert.equal(config?.cache.ttl, 0);
  assert.equal('$schema' in (config ?? {}), false);
});

// The same fixtures through the real CLI: what a user sees, and the --json form.
for (const name of ['bad-address', 'invalid-json']) {
  test(`svc build prints the ${name} fixture's diagnostics and exits 1`, async () => {
    const root = await makeProject({
      'svc.json': await readFile(join(fixtures, name, 'svc.json'), 'utf8'),
      'routes/web.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/', () => 'home');\n};\n`,
    });
    try {
      const text = svc(root, ['build']);
      assert.equal(text.status, 1);
      assert.equal(text.stderr.trimEnd(), (await readFile(join(fixtures, name, 'expected.txt'), 'utf8')).trimEnd());
      const json = svc(root, ['build', '--json']);
      assert.equal(json.status, 1);
      const { diagnostics } = JSON.parse(json.stdout) as { diagnostics: Array<{ code: string; file: string }> };
      assert.ok(diagnostics.length > 0 && diagnostics.every((d) => d.code === 'SVC007' && d.file === 'svc.json'));
    } finally {
      await removeProject(root);
    }
  });
}

test('timeouts longer than a Node timer can hold are SVC007', () => {
  const { diagnostics } = parseConfig('{ "server": { "shutdownGraceMs": 3000000000, "requestTimeoutMs": 2147483647 } }');
  assert.deepEqual(
    diagnostics.map((d) => `${d.code} ${d.text}`),
    ['SVC007 server.shutdownGraceMs: expected a whole number from 0 to 2147483647, got 3000000000'],
  );
});

test('svc.json with a byte order mark is read, its positions as an editor shows them', () => {
  const { config, diagnostics } = parseConfig('\uFEFF{ "server": { "port": "x" } }');
  assert.equal(config?.server.port, 6916);
  assert.deepEqual(diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`), ['1:23 SVC007']);
});

test('svc.json nested thousands deep, or a folder named svc.json, is SVC007, not a crash', async () => {
  const deep = parseConfig(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  assert.equal(deep.config, null);
  assert.match(deep.diagnostics[0]?.text ?? '', /svc\.json (is nested too deeply to read|is not valid JSON)/);
  const root = await makeProject({ 'svc.json/inside.txt': 'a folder' });
  try {
    const { config, diagnostics } = await loadConfig(root);
    assert.equal(config, null);
    assert.deepEqual(diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.text}`), ['svc.json:1:1 SVC007 svc.json is a folder; it must be a JSON file']);
  } finally {
    await removeProject(root);
  }
});
