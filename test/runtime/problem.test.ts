// problem+json bodies are built as text around a constant start (runtime/errors/problem.ts);
// they must be byte for byte what JSON.stringify gives for the problem object.
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { it } from 'node:test';
import fc from 'fast-check';
import type { ErrorPages } from '../../runtime/errors/pages.ts';
import { problemOutgoing, statusTitle } from '../../runtime/errors/problem.ts';

const noPages = {} as ErrorPages;
const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }));

it('writes the same JSON as JSON.stringify, escapes and lone surrogates included', () => {
  fc.assert(
    fc.property(fc.integer({ min: 400, max: 599 }), anyText, fc.uuid({ version: 4 }), fc.option(anyText, { nil: undefined }), (status, detail, requestId, stack) => {
      const { body } = problemOutgoing({ status, detail, stack }, undefined, requestId, noPages);
      const expected = { type: 'about:blank', title: statusTitle(status), status, detail, requestId, ...(stack === undefined ? {} : { stack: stack.split('\n') }) };
      assert.equal(body, JSON.stringify(expected));
    }),
    { numRuns: 2000 },
  );
});

it('gives every response its own headers object, which middleware may change', () => {
  const first = problemOutgoing({ status: 404, detail: 'x' }, undefined, 'id', noPages);
  first.headers['x-added'] = '1';
  const second = problemOutgoing({ status: 404, detail: 'x' }, undefined, 'id', noPages);
  assert.deepEqual(second.headers, { 'content-type': 'application/problem+json', vary: 'accept' });
});

it("titles a status with RFC 9110's reason phrase, node's where they agree", () => {
  assert.equal(statusTitle(413), 'Content Too Large');
  assert.equal(statusTitle(422), 'Unprocessable Content');
  assert.equal(statusTitle(404), STATUS_CODES[404]);
  assert.equal(statusTitle(599), 'Error');
});
