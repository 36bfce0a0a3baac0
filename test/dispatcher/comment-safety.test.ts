// Route text reaches the generated source only inside comments and string literals; a
// pattern that looks like the end of a block comment must not end one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDispatcher, table } from './fixtures.ts';

test('a literal segment ending in `*` before a slash leaves the generated module intact', async () => {
  const lines = Array.from({ length: 24 }, (_, i) => `GET /a*/{id}/x${i}`);
  const match = await loadDispatcher(table(lines));
  assert.deepEqual(match('GET', '/a*/7/x23'), { kind: 'found', route: 23, params: ['7'] });
});
