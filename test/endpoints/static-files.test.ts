// StaticFiles (runtime/endpoints/static-file.ts) on a real folder: which files it keeps in
// memory, within its budget, and which it leaves on disk to be streamed.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StaticFiles } from '../../runtime/endpoints/static-file.ts';

const MiB = 1024 * 1024;

describe('StaticFiles', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'svc-static-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  const file = async (name: string, bytes: number): Promise<string> => {
    const path = join(folder, name);
    await writeFile(path, Buffer.alloc(bytes, name));
    return path;
  };

  it('keeps a small file in memory until it changes, and leaves a large one on disk', async () => {
    const files = new StaticFiles(folder);
    const small = await file('small.txt', 100);
    const first = await files.load(small);
    assert.equal(first?.body?.length, 100);
    assert.equal(await files.load(small), first, 'the same copy, not read again');
    await writeFile(small, 'changed');
    assert.equal((await files.load(small))?.body?.toString(), 'changed');
    const large = await files.load(await file('large.bin', 4 * MiB + 1));
    assert.deepEqual([large?.body, large?.size], [null, 4 * MiB + 1]);
    assert.equal((await files.load(join(folder, 'large.bin'), true))?.body?.length, 4 * MiB + 1, 'whole, when asked');
  });

  it('holds 16 MiB at most, dropping the longest kept first, and counts a file read by several requests at once once', async () => {
    const files = new StaticFiles(folder);
    const first = await file('first.bin', MiB);
    // Twenty requests at once, each reading it before any kept it.
    const copies = await Promise.all(Array.from({ length: 20 }, () => files.load(first)));
    const kept = await files.load(first);
    assert.ok(copies.includes(kept!));
    for (let i = 0; i < 15; i++) await files.load(await file(`other-${i}.bin`, MiB));
    assert.equal(await files.load(first), kept, 'still kept: 16 files of 1 MiB fit');
    await files.load(await file('one-more.bin', MiB));
    assert.notEqual(await files.load(first), kept, 'the longest kept went first');
  });
});
