// The generated source for a small table, compared byte for byte with a committed file
// (which `npm run typecheck` also checks as strict TypeScript). After a deliberate change
// to the generator: UPDATE_SNAPSHOTS=1 node scripts/test.mjs test/dispatcher/snapshot.test.ts
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { it } from 'node:test';
import { ts } from 'ts-morph';
import { emitDispatcher } from '../../compiler/emit/dispatcher/index.ts';
import { table } from './fixtures.ts';

const expectedFile = new URL('./snapshots/dispatcher.ts', import.meta.url);

const routes = table([
  'GET /',
  'GET /users',
  'POST /users',
  'GET /users/{id:number}',
  'GET /users/new',
  'PUT /users/{id:number}',
  'GET /users/{id}/posts/{post?}',
  'DELETE /users/{id}/posts/{post}',
  'GET /profile/{name?}',
  'GET /issues/{state:open|closed}',
  'OPTIONS /files/{name}',
]);

it('emits the committed dispatcher source', async () => {
  const source = emitDispatcher(routes);
  if (process.env.UPDATE_SNAPSHOTS === '1') await writeFile(expectedFile, source);
  assert.equal(source, await readFile(expectedFile, 'utf8'));
});

it('emits the same bytes whatever the order of the route list', () => {
  assert.equal(emitDispatcher([...routes].reverse()), emitDispatcher(routes));
});

it('holds no regular expression, in the dispatcher nor in the path reading it imports (SPEC §3)', async () => {
  const { emitCanonicalPath } = await import('../../compiler/emit/canonical-path.ts');
  for (const [name, source] of [['dispatcher.ts', emitDispatcher(routes)], ['canonical-path.ts', emitCanonicalPath()]] as const) {
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node) || (ts.isIdentifier(node) && node.text === 'RegExp')) found.push(node.getText(file));
      ts.forEachChild(node, visit);
    };
    const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
    visit(file);
    assert.deepEqual(found, [], name);
  }
});
