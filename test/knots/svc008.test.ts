// SVC008 at build time: every middleware entry whose class is unknown, is not a
// middleware, or whose parameters do not fit its constructor (count, declared primitive
// types) is reported, all in one run, at the exact place.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svc, type CliResult } from '../support/cli.ts';
import { fixtureFiles } from '../support/knots.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

describe('svc build: SVC008', () => {
  let root: string;
  let result: CliResult;
  before(async () => {
    const { 'expected.txt': _expected, ...files } = await fixtureFiles('broken-svc008');
    root = await makeProject(files);
    result = svc(root, ['build']);
  });
  after(() => removeProject(root));

  it('fails with exit code 1', () => {
    assert.equal(result.status, 1, result.stdout + result.stderr);
  });

  it('prints exactly the expected diagnostics, and none for the entries that fit', async () => {
    const expected = (await readFile(join(repoRoot, 'test/fixtures/middleware/broken-svc008/expected.txt'), 'utf8')).split('\n').filter(Boolean);
    const printed = result.stderr.split('\n').filter((line) => line.includes(' - error ') || line.includes(' - warning '));
    assert.deepEqual(printed, expected);
  });
});
