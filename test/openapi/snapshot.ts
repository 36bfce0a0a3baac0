// Committed expected output, compared byte for byte. `UPDATE_SNAPSHOTS=1` rewrites the
// files instead (review the diff before committing it).
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function assertSnapshot(actual: string, file: string): Promise<void> {
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, actual);
    return;
  }
  const expected = await readFile(file, 'utf8').catch(() => {
    throw new Error(`No snapshot at ${file}; run with UPDATE_SNAPSHOTS=1 to create it.`);
  });
  assert.equal(actual, expected);
}
