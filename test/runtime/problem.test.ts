// problem+json bodies are built as text around a constant start (runtime/errors/problem.ts);
// they must be byte for byte what JSON.stringify gives for the problem object.
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { it } from 'node:test';
import fc from 'fast-check';
import type { ErrorPages } from '../../runtime/errors/pages.ts';
import { problemOutgoing } from '../../runtime/errors/problem.ts';

const noPages = {} as ErrorPages;
const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }));

it('writes the same JSON as JSON.stringify, escapes and lone surrogates included', () => {
  fc.assert(
    fc.property(fc.integer({ min: 400, max: 599 }), anyText, fc.uuid({ version: 4 }), fc.option(anyText, { nil: undefined }), (status, detail, requestId, stack) => {
      const { body } = problemOutgoing({ status, detail, stack }, undefined, requestId, noPages);
      const expected = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, requestId, ...(stack === undefined ? {} : { stack: stack.split('\n') }) };
      assert.equal(body, JSON.stringify(expected));
    }),
    { numRuns: 2000 },
  );
});

it('gives every response its own headers object, which middleware may change', () => {
  const first = problemOutgoing({ status: 404, detail: 'x' }, undefined, 'id', noPages);
  first.headers['x-added'] = '1';
  const second = problemOutgoing({ status: 404, detail: 'x' }, undefined, 'id', noPages);
  assert.deepEqual(second.headers, { 'content-type': 'application/problem+json' });
});
