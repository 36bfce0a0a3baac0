// The same commands through `main()` in this process, as the server's own tests may run them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { main } from '../../compiler/cli/main.ts';
import { writeFiles } from '../support/project.ts';
import { appliedNames, createTable, failing, migrationPath, project, schema } from './support.ts';

const cwd = process.cwd();
after(() => process.chdir(cwd)); // main() changes into the project

test('main(): a failed migration, fixed on disk, runs on the next call', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_create_tags')]: failing,
  });
  assert.equal(await main(['cobble', 'run'], root), 1);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes']);

  await writeFiles(root, { [migrationPath('20250101000001_create_tags')]: createTable('tags') });
  assert.equal(await main(['cobble', 'run'], root), 0);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);
  assert.equal(await main(['cobble', 'rollback'], root), 0); // batch 2: tags only
  assert.deepEqual(schema(root).filter((entry) => entry.startsWith('table ')), ['table notes: CREATE TABLE "notes" ("id" integer)']);
  assert.equal(await main(['cobble'], root), 2);
});
