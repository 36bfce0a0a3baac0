// The framework, the demo application, the tests and the benches type-check under strict
// TypeScript: the `'svc'` API the demo imports is exactly the one the runtime exports.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { repoRoot } from './support/project.ts';

test('tsc --noEmit reports nothing', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', repoRoot], { encoding: 'utf8' });
  assert.equal(result.stdout + result.stderr, '');
  assert.equal(result.status, 0);
});
