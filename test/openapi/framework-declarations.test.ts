// An SVC009 warning points at a type's property where the project declares it. A framework
// run from a checkout beside the project (`node /path/to/svc/bin/svc.js build`, as these
// tests run it) is not under node_modules, yet its files are no place for the warning:
// it points at the handler's own code, as it does for an installed svc.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

test("a framework type's property that JSON cannot carry is warned about in the route file, not at a path outside the project", async () => {
  const root = await makeProject({
    'routes/api.ts': [
      "import type { Context, Router } from 'svc';",
      'export default (router: Router) => {',
      "  router.get('/router', () => ({ router: null as unknown as Router }));",
      "  router.get('/context', function (this: Context) { return { context: this }; });",
      '};',
      '',
    ].join('\n'),
    'svc.json': '{}',
  });
  try {
    const built = svc(root, ['build', '--json']);
    const { diagnostics } = JSON.parse(built.stdout) as { diagnostics: Array<{ path: string; line: number; col: number; code: string; text: string }> };
    assert.deepEqual(diagnostics.map((d) => `${d.path}:${d.line}:${d.col} ${d.code} ${d.text}`), [
      'routes/api.ts:3:34 SVC009 the type `Register` cannot be described as JSON (functions and classes are not data); it is documented as {}.',
      'routes/api.ts:4:62 SVC009 JSON writes a URLSearchParams as {}, without its contents; send Object.fromEntries(params), or params.toString().',
    ]);
    assert.equal(built.status, 0);
  } finally {
    await removeProject(root);
  }
});
