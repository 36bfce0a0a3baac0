// The shapes a route covers and its path text, which the checks, the dispatcher and
// OpenAPI all take from compiler/route-shapes.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Segment } from '../../compiler/ir.ts';
import { pathShapes, pathText, shapeKey } from '../../compiler/route-shapes.ts';

const search: Segment[] = [
  { kind: 'literal', value: 'search' },
  { kind: 'param', name: 'term', optional: true, type: { kind: 'string' } },
];
const user: Segment[] = [
  { kind: 'literal', value: 'users' },
  { kind: 'param', name: 'id', optional: false, type: { kind: 'number' } },
];

test('an optional last placeholder covers the path without it, then the path with it required', () => {
  assert.deepEqual(
    pathShapes(search).map(({ segments, absent }) => [pathText(segments), absent]),
    [['/search', true], ['/search/{term}', false]],
  );
  assert.deepEqual(pathShapes(user), [{ segments: user, absent: false }]);
  assert.deepEqual(pathShapes([]), [{ segments: [], absent: false }]);
});

test('path text writes placeholders as in a pattern unless told otherwise; the shape key leaves names out', () => {
  assert.equal(pathText(search), '/search/{term?}');
  assert.equal(pathText([]), '/');
  assert.equal(pathText(user, () => '{…}'), '/users/{…}');
  assert.equal(shapeKey(user), '/users/{}');
  assert.equal(shapeKey(search), '/search/{?}');
});
