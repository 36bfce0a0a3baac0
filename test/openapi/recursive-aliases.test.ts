// A recursive alias met first through one of its own anonymous members (`Json[]`, or the
// members a handler's union is split into) must still describe that member: the cycle
// runs through the alias' name, so it ends in a `$ref`, not in `{}` and a warning.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { emitOpenApi } from '../../compiler/emit/openapi/index.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

let root: string;
after(() => removeProject(root));

test('a recursive alias reached through its own array member keeps that member', async () => {
  root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Tree = number | Tree[];
export default (router: Router) => {
  router.get('/json', (): Json => null);
  router.get('/wrapped', (): { data: Json[] } => ({ data: [] }));
  router.get('/tree', (): Tree | string => 1);
};
`,
  });
  const { table, diagnostics } = await build(root, { write: false });
  assert.deepEqual(diagnostics.map((d) => d.text), []);
  const document = await assertValidOpenApi(emitOpenApi(table!));
  const schemas = document.components!.schemas as Record<string, { anyOf: unknown[] }>;
  assert.deepEqual(schemas.Json!.anyOf.filter((s) => (s as { type?: string }).type === 'array'), [{ type: 'array', items: { $ref: '#/components/schemas/Json' } }]);
  assert.deepEqual(schemas.Tree!.anyOf, [{ type: 'number' }, { type: 'array', items: { $ref: '#/components/schemas/Tree' } }]);
});
