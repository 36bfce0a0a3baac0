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

// Its transaction commits, then the tracker is written (and synced to disk, which can take
// tens of milliseconds): a Ctrl-C in between would leave a table the tracker does not
// know of, and the next run would fail on "table already exists". The timer fires while
// the record is written.
const interrupting = (table: string, direction: 'up' | 'down') => `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('${table}').addColumn('id', 'integer').execute();
  ${direction === 'up' ? "setTimeout(() => process.kill(process.pid, 'SIGINT'), 0);" : ''}
}
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('${table}').execute();
  ${direction === 'down' ? "setTimeout(() => process.kill(process.pid, 'SIGINT'), 0);" : ''}
}
`;

test('Ctrl-C while a committed migration is being recorded: it is recorded, then the run stops', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: interrupting('notes', 'up'),
    [migrationPath('20250101000001_create_tags')]: createTable('tags'),
  });

  const stopped = cobble(root, 'run');
  assert.equal(stopped.status, 130, stopped.stdout + stopped.stderr);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes']);
  assert.match(stopped.stdout, /Applied {6}20250101000000_create_notes \(batch 1\)\nNot run {6}20250101000001_create_tags\n/);
  assert.equal(
    stopped.stderr,
    'svc cobble: stopped by SIGINT once 20250101000000_create_notes was recorded as applied; the migrations not run are still pending: run svc cobble run again to apply them.\n',
  );

  const resumed = cobble(root, 'run');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);
});

test('Ctrl-C while a rollback is being recorded: the migration is taken off the tracker, then the rollback stops', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_create_tags')]: interrupting('tags', 'down'),
    [migrationPath('20250101000002_create_users')]: createTable('users'),
  });
  assert.equal(cobble(root, 'run').status, 0);

  const stopped = cobble(root, 'rollback');
  assert.equal(stopped.status, 130, stopped.stdout + stopped.stderr);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes']);
  assert.match(stopped.stdout, /Rolled back {2}20250101000002_create_users \(batch 1\)\nRolled back {2}20250101000001_create_tags \(batch 1\)\nNot undone {3}20250101000000_create_notes\n/);
  assert.equal(
    stopped.stderr,
    'svc cobble: stopped by SIGINT once the rollback of 20250101000001_create_tags was recorded; the rest of batch 1 is still applied: run svc cobble rollback again to undo it.\n',
  );

  const resumed = cobble(root, 'rollback');
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.deepEqual(appliedNames(root), []);
  assert.deepEqual(schema(root).filter((entry) => entry.startsWith('table ')), []);
});
