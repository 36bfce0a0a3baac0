import assert from 'node:assert/strict';
import { test } from 'node:test';
import { repoRoot } from '../support/project.ts';
import { svc } from '../support/cli.ts';

test('--version prints MAJOR.MINOR.PATCH', () => {
  const result = svc(repoRoot, ['--version']);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /\b\d+\.\d+\.\d+\b/);
});

test('--help lists the commands', () => {
  const result = svc(repoRoot, ['--help']);
  assert.equal(result.status, 0);
  for (const command of ['build', 'serve', 'tread', 'route', 'cobble', 'cache:clear']) assert.match(result.stdout, new RegExp(`\\b${command}\\b`));
});

for (const args of [['frobnicate'], [], ['build', '--no-such-flag'], ['serve', '--port', 'seventy'], ['serve', '--port', '70000']]) {
  test(`usage error exits 2 with help: svc ${args.join(' ')}`, () => {
    const result = svc(repoRoot, args);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /svc: /);
    assert.match(result.stderr, /Usage:/);
    assert.equal(result.stdout, '');
  });
}
