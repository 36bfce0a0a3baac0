// Each broken tree under test/fixtures/diagnostics/ goes through the real `svc build`,
// which must exit 1 and print exactly the lines of the tree's expected.txt on stderr; a
// `warns-` tree must print its warnings the same way and still build (exit 0).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { error, formatDiagnostic, sortDiagnostics, type Diagnostic } from '../../compiler/diagnostics.ts';
import { removeProject } from '../support/project.ts';
import { copyFixture, fixturesDir, lines, runSvc } from './fixture.ts';

const cases = readdirSync(fixturesDir).filter((name) => name.startsWith('broken-') || name.startsWith('warns-')).sort();
const expected = (name: string): string[] => lines(readFileSync(join(fixturesDir, name, 'expected.txt'), 'utf8'));

describe('svc build reports every problem of a broken tree', { concurrency: 2 }, () => {
  for (const name of cases) {
    const broken = name.startsWith('broken-');
    it(name, async () => {
      const root = await copyFixture(name);
      try {
        const run = await runSvc(root, ['build']);
        assert.deepEqual(lines(run.stderr), expected(name));
        // A tree that only warns is built, and says so on stdout.
        if (broken) assert.equal(run.stdout, '');
        assert.equal(run.code, broken ? 1 : 0);
      } finally {
        await removeProject(root);
      }
    });
  }

  it('--json prints the same diagnostics as structured JSON on stdout', async () => {
    const name = 'broken-svc003-arity';
    const root = await copyFixture(name);
    try {
      const run = await runSvc(root, ['build', '--json']);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, '');
      const twice = await runSvc(root, ['build', '--json', '--json']);
      assert.deepEqual([twice.code, twice.stdout, twice.stderr], [1, run.stdout, ''], 'a flag given twice counts once');
      const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
      assert.ok(diagnostics.every((d) => d.severity === 'error' && d.code === 'SVC003'));
      assert.deepEqual(diagnostics.find((d) => d.line === 10), {
        code: 'SVC003',
        severity: 'error',
        path: 'routes/api.ts',
        line: 10,
        col: 25,
        message: "the handler takes 2 parameters (id, extra) but '/d/{id}' has 1 placeholder (id); declare one parameter per placeholder, in order",
        notes: ['the handler is declared at routes/api.ts:4:14'],
        file: 'routes/api.ts',
        text: "the handler takes 2 parameters (id, extra) but '/d/{id}' has 1 placeholder (id); declare one parameter per placeholder, in order",
      });
      assert.deepEqual(diagnostics.flatMap((d) => formatDiagnostic(d).split('\n')), expected(name));
    } finally {
      await removeProject(root);
    }
  });
});

it('diagnostics are sorted by code unit, as route files are, whatever the locale', () => {
  const at = (file: string) => error('SVC005', 'x', { file, line: 1, col: 1 });
  const sorted = sortDiagnostics([at('routes/b.ts'), at('routes/a.ts'), at('routes/B.ts'), at('routes/\u00e4.ts')]);
  assert.deepEqual(sorted.map((d) => d.file), ['routes/B.ts', 'routes/a.ts', 'routes/b.ts', 'routes/\u00e4.ts']);
});
