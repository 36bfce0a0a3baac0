// Names in the generated code and the API document (operationIds, schema components,
// imports of the entry) come from UniqueNames; a name wanted again gets the lowest free
// suffix, whatever else was claimed in between.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UniqueNames } from '../../compiler/unique-names.ts';

describe('UniqueNames', () => {
  it('hands out a name, then the lowest free suffix', () => {
    const names = new UniqueNames();
    assert.deepEqual(['User', 'User', 'Post', 'User'].map((n) => names.claim(n)), ['User', 'User_2', 'Post', 'User_3']);
  });

  it('skips a suffixed name claimed as it is, before or after the plain one', () => {
    const names = new UniqueNames();
    assert.deepEqual(['User_3', 'User', 'User', 'User_2', 'User', 'User_5', 'User'].map((n) => names.claim(n)), ['User_3', 'User', 'User_2', 'User_2_2', 'User_4', 'User_5', 'User_6']);
  });

  it('hands out thousands of one name, each once, in order', () => {
    const names = new UniqueNames();
    const claimed = Array.from({ length: 2000 }, () => names.claim('index'));
    assert.deepEqual(claimed, ['index', ...Array.from({ length: 1999 }, (_, i) => `index_${i + 2}`)]);
  });
});
