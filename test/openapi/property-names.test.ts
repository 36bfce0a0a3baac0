// Property names are data, whatever they spell: `__proto__` (an own key in
// `{ ['__proto__']: 1 }` and in what JSON.parse gives) must not become a prototype on
// the way into the document, nor names of Object.prototype's members be mistaken for them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { emitOpenApi } from '../../compiler/emit/openapi/index.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

let root: string;
after(() => removeProject(root));

test('a property named __proto__, constructor, toString or the empty string is documented like any other', async () => {
  root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';
interface Odd { '__proto__': string; constructor: number; toString: boolean; '': null; 'a/b~c': string }
export default (router: Router) => {
  router.get('/odd', (): Odd => null!);
};
`,
  });
  const { table, diagnostics } = await build(root, { write: false });
  assert.deepEqual(diagnostics, []);
  const document = await assertValidOpenApi(emitOpenApi(table!));
  const odd = (document.components!.schemas as Record<string, { properties: object; required: string[] }>).Odd!;
  assert.deepEqual(Object.keys(odd.properties).sort(), ['', '__proto__', 'a/b~c', 'constructor', 'toString']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(odd.properties, '__proto__')?.value, { type: 'string' });
  assert.deepEqual([...odd.required].sort(), Object.keys(odd.properties).sort());
});
