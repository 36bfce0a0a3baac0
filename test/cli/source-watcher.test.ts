// The watcher svc tread builds on, alone: what it reports for a file outside routes/ and
// weave/ that a build read, through deletions and restorations of that file.
import assert from 'node:assert/strict';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { SourceWatcher } from '../../compiler/cli/source-watcher.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { eventually } from '../support/cli.ts';

test('a file moved away and back, again and again, is still reported once per save, by one watcher', async () => {
  const root = await makeProject({ 'lib/word.ts': 'export const word = 1;\n' });
  const word = join(root, 'lib', 'word.ts');
  let calls = 0;
  const watcher = await SourceWatcher.start(root, () => calls++);
  try {
    await watcher.follow([word], true, Date.now());
    const reportsOfOneSave = async (n: number): Promise<number> => {
      await sleep(150); // past chokidar's hold on repeated changes and the second look
      const before = calls;
      await writeFile(word, `export const word = ${n};\n`);
      await eventually(async () => calls > before);
      await sleep(300);
      return calls - before;
    };
    const first = await reportsOfOneSave(2);
    // Moved away and back four times: with a failed build in between (the one that misses
    // the file), or too quickly for one.
    for (const failedBuild of [true, true, false, false]) {
      let before = calls;
      await rename(word, `${word}.away`);
      await eventually(async () => calls > before);
      if (failedBuild) await watcher.follow([word], false, Date.now());
      before = calls;
      await rename(`${word}.away`, word);
      await eventually(async () => calls > before);
      await watcher.follow([word], true, Date.now());
    }
    assert.equal(await reportsOfOneSave(3), first);
  } finally {
    await watcher.close();
    await removeProject(root);
  }
});
