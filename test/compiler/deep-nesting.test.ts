// A file nested a few hundred levels deep overflows TypeScript's recursive parser (tsc's
// too). svc build reports where the nesting is deepest (SVC010), in a route file or in a
// file it imports, rather than dying with a RangeError.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

const HINT = "more than TypeScript's parser can follow (it runs out of stack, in tsc too); split the expression or the groups into flatter code.";

async function buildOf(files: Record<string, string>): Promise<{ status: number | null; errors: string[] }> {
  const root = await makeProject({ 'svc.json': '{}', ...files });
  try {
    const built = svc(root, ['build']);
    return { status: built.status, errors: built.stderr.split('\n').filter(Boolean) };
  } finally {
    await removeProject(root);
  }
}

test('groups nested 600 deep in a route file are SVC010 at the deepest point', async () => {
  const open = '  router.group({ prefix: "/g" }, (r) => {\n'.repeat(600);
  const close = '  });\n'.repeat(600);
  const run = await buildOf({ 'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n${open}  r.get('/x', () => 1);\n${close}};\n` });
  assert.deepEqual(run, { status: 1, errors: [`routes/api.ts:603:15 - error SVC010: nested 1203 levels deep here, ${HINT}`] });
});

test('an array nested 3,000 deep in an imported file is SVC010 in that file', async () => {
  const run = await buildOf({
    'routes/api.ts': `import type { Router } from 'svc';\nimport { value } from '../weave/value.ts';\nexport default (router: Router) => {\n  router.get('/a', () => value);\n};\n`,
    'weave/value.ts': `export const value = ${'['.repeat(3000)}1${']'.repeat(3000)};\n`,
  });
  assert.deepEqual(run, { status: 1, errors: [`weave/value.ts:1:3021 - error SVC010: nested 3000 levels deep here, ${HINT}`] });
});
