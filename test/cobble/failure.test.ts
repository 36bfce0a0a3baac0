// A failing migration is rolled back and not recorded, and nothing after it runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFiles } from '../support/project.ts';
import { appliedNames, cobble, createTable, failing, migrationPath, project, schema, trackerText } from './support.ts';

test('a failing migration leaves the schema and migrations.json exactly as they were', async () => {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  assert.equal(cobble(root, 'run').status, 0);
  await writeFiles(root, {
    [migrationPath('20250101000001_create_tags')]: createTable('tags'),
    [migrationPath('20250101000002_broken')]: failing,
    [migrationPath('20250101000003_create_users')]: createTable('users'),
  });
  assert.equal(cobble(root, 'run').status, 1); // tags commits, broken fails
  const schemaBefore = schema(root);
  const trackerBefore = trackerText(root);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);

  const result = cobble(root, 'run');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /Migration 20250101000002_broken failed and was rolled back: no such table: no_such_table/);
  assert.match(result.stdout, /Not run\s+20250101000003_create_users/);
  assert.deepEqual(schema(root), schemaBefore); // half_done was created inside the transaction: gone
  assert.equal(trackerText(root), trackerBefore);
});

test('a failing first migration on a fresh project leaves no schema and no tracker', async () => {
  const root = await project({ [migrationPath('20250101000000_broken')]: failing });
  const result = cobble(root, 'run');
  assert.equal(result.status, 1);
  assert.deepEqual(schema(root), []);
  assert.equal(trackerText(root), null);
});

test('a migration that cannot be loaded, or lacks up/down, fails with its name', async () => {
  const root = await project({ [migrationPath('20250101000000_syntax')]: 'export async function up( {' });
  const syntax = cobble(root, 'run');
  assert.equal(syntax.status, 1);
  assert.match(syntax.stderr, /Migration 20250101000000_syntax could not be loaded: .*\nshoebox\/migrations\/20250101000000_syntax\.ts:1:\d+: ERROR: /);
  assert.ok(!syntax.stderr.includes(root), syntax.stderr);

  const other = await project({ [migrationPath('20250101000000_no_down')]: 'export async function up() {}\n' });
  const noDown = cobble(other, 'run');
  assert.equal(noDown.status, 1);
  assert.match(noDown.stderr, /Migration 20250101000000_no_down does not export a function down\(db\)/);
  assert.equal(trackerText(other), null);
});

test('a migration awaiting a promise nothing can settle fails with its name and is rolled back, instead of a silent exit 13', async () => {
  const root = await project({
    [migrationPath('20250101000000_stuck')]: `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('stuck').addColumn('id', 'integer').execute();
  await new Promise<void>(() => {}); // a callback that never comes
}
export async function down(): Promise<void> {}
`,
  });
  const result = cobble(root, 'run');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /Migration 20250101000000_stuck failed and was rolled back: up\(db\) never finished/);
  assert.deepEqual(schema(root), []);
  assert.equal(trackerText(root), null);
});

test('a failing down() keeps the migration recorded and its schema', async () => {
  const root = await project({
    [migrationPath('20250101000000_stubborn')]: `import { sql, type Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('stubborn').addColumn('id', 'integer').execute();
}
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stubborn').execute();
  await sql\`select * from no_such_table\`.execute(db);
}
`,
  });
  assert.equal(cobble(root, 'run').status, 0);
  const schemaBefore = schema(root);
  const trackerBefore = trackerText(root);
  const result = cobble(root, 'rollback');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /Rollback of 20250101000000_stubborn failed and was rolled back/);
  assert.deepEqual(schema(root), schemaBefore);
  assert.equal(trackerText(root), trackerBefore);
});

test('an unknown database driver in svc.json: exit 1 with a message, nothing run', async () => {
  const root = await project({
    'svc.json': JSON.stringify({ database: { driver: 'postgres', url: 'postgres://localhost/app' } }),
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
  });
  const result = cobble(root, 'run');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /driver/);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.equal(trackerText(root), null);
});
