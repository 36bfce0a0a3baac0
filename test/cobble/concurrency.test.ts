// Two `cobble run` at once apply each migration once: the second waits for the lock and
// then finds nothing pending.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { connectSqlite } from '../../runtime/database/sqlite-library.ts';
import { appliedNames, createTable, migrationPath, project, rows, startCobble } from './support.ts';

const insertOnce = `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('notes').values({ id: 1 }).execute();
}
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('notes').execute();
}
`;

/** Holds the migration lock the way cobble does, so that both runs start while it is taken. */
function holdLock(root: string): () => void {
  const lock = connectSqlite(join(root, 'shoebox', 'migrations', '.lock'));
  lock.exec('BEGIN IMMEDIATE');
  return () => lock.close();
}

test('two concurrent runs apply each migration exactly once', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_insert_note')]: insertOnce,
  });
  const release = holdLock(root);
  const first = startCobble(root, 'run');
  const second = startCobble(root, 'run');
  await Promise.all([first.output('Waiting for another cobble run'), second.output('Waiting for another cobble run')]);
  assert.deepEqual(appliedNames(root), []);
  release();

  const results = await Promise.all([first.done, second.done]);
  for (const result of results) assert.equal(result.status, 0, result.stderr);
  const outputs = results.map((result) => result.stdout).sort();
  assert.equal(outputs.filter((out) => /Applied\s+20250101000001_insert_note/.test(out)).length, 1);
  assert.equal(outputs.filter((out) => /Nothing to migrate/.test(out)).length, 1);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_insert_note']);
  assert.deepEqual(rows(root, 'select id from notes'), [{ id: 1 }]);
});
