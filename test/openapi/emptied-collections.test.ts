// A Map, Set, Headers or URLSearchParams in an answer is sent as `{}`: documented as
// what is sent, with an SVC009 warning at the type saying what to send instead.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { makeProject, removeProject } from '../support/project.ts';

let root: string;
before(async () => {
  root = await makeProject({
    'routes/api.ts': [
      "import type { Router } from 'svc';",
      '',
      'export default (router: Router) => {',
      "  router.get('/map', (): Map<string, number> => new Map([['a', 1]]));",
      "  router.get('/tags', (): { tags: Set<string>; count: number } => ({ tags: new Set(['x']), count: 1 }));",
      "  router.get('/plain', (): { tags: string[] } => ({ tags: ['x'] }));",
      '};',
      '',
    ].join('\n'),
  });
});
after(() => removeProject(root));

test('a Map or Set in an answer is documented as {} with a warning naming what to send instead', async () => {
  const result = await build(root, { write: false });
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`),
    [
      'routes/api.ts:4:26 warning SVC009 JSON writes a Map as {}, without its contents; send Object.fromEntries(map), or [...map] for keys that are not strings.',
      'routes/api.ts:5:29 warning SVC009 JSON writes a Set as {}, without its contents; send [...set].',
    ],
  );
});
