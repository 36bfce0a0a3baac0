// Request ids: version 4 UUIDs from the CSPRNG, handed out from batches.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestId } from '../../runtime/server/request-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestId()', () => {
  it('gives distinct version 4 UUIDs across batches', () => {
    const ids = Array.from({ length: 2000 }, requestId);
    for (const id of ids) assert.match(id, UUID_V4);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('draws every hex digit at random positions', () => {
    // 122 random bits per id: over 2000 ids each free position takes every value.
    const ids = Array.from({ length: 2000 }, requestId);
    for (const position of [0, 9, 15, 20, 35]) {
      assert.equal(new Set(ids.map((id) => id[position])).size, 16, `position ${position}`);
    }
  });
});
