// A computed type can nest anonymous objects a thousand levels deep (TypeScript follows a
// tail-recursive conditional type that far). Its schema stops at a depth that svc build's
// own naming and the tools reading the document can follow: an SVC009 warning and `{}`
// there, not a stack overflow reported as a file the parser cannot read (SVC010).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { emitOpenApi } from '../../compiler/emit/openapi/index.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

let root: string;
after(() => removeProject(root));

test('anonymous types nested 999 deep are cut short with one warning, and the document validates', async () => {
  root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';
type Nested<T, L extends 0[]> = L['length'] extends 999 ? T : Nested<{ x: T }, [...L, 0]>;
type Arrays<T, L extends 0[]> = L['length'] extends 999 ? T : Arrays<T[], [...L, 0]>;
export default (router: Router) => {
  router.get('/objects', (): Nested<number, []> => null!);
  router.get('/arrays', (): Arrays<number, []> => null!);
  router.get('/shallow', (): Nested<number, [${'0, '.repeat(799)}0]> => null!);
};
`,
  });
  const { table, diagnostics } = await build(root, { write: false });
  assert.deepEqual(
    diagnostics.map((d) => `${d.severity} ${d.code} ${/it nests more than 256 levels deep without a name/.test(d.text)}`),
    ['warning SVC009 true', 'warning SVC009 true'],
  );
  const document = await assertValidOpenApi(emitOpenApi(table!));
  // 999 - 800 levels: described in full, down to the number.
  let schema = document.paths['/shallow']!.get.responses['200']!.content!['application/json']!.schema as { properties?: { x: unknown }; type?: string };
  for (let level = 0; level < 199; level++) schema = schema.properties!.x as typeof schema;
  assert.deepEqual(schema, { type: 'number' });
});
