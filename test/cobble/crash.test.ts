// A process killed between migrations loses no record of what committed, and leaves no
// lock behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFiles } from '../support/project.ts';
import { appliedNames, cobble, createTable, migrationPath, project, schema } from './support.ts';

const killer = `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('never').addColumn('id', 'integer').execute();
  process.kill(process.pid, 'SIGKILL');
}
export async function down(): Promise<void> {}
`;

test('SIGKILL in the middle of a run: earlier migrations stay recorded, the killed one is not applied', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_create_tags')]: createTable('tags'),
    [migrationPath('20250101000002_killer')]: killer,
    [migrationPath('20250101000003_create_users')]: createTable('users'),
  });

  const killed = cobble(root, 'run');
  assert.equal(killed.status, null); // killed by the signal, no exit code
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);
  const tables = schema(root).filter((entry) => entry.startsWith('table ')).map((entry) => entry.split(':')[0]);
  assert.deepEqual(tables, ['table notes', 'table tags']);

  await writeFiles(root, { [migrationPath('20250101000002_killer')]: createTable('never') });
  const resumed = cobble(root, 'run');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stdout, /Waiting/); // the dead process's lock went with it
  assert.deepEqual(appliedNames(root), [
    '20250101000000_create_notes',
    '20250101000001_create_tags',
    '20250101000002_killer',
    '20250101000003_create_users',
  ]);
});
