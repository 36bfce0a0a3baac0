// `export const withinTransaction = false` runs a migration without cobble's transaction,
// as Laravel's `$withinTransaction`: SQLite ignores `PRAGMA foreign_keys` inside one, so
// rebuilding a table that others reference (its documented way to change a column) would
// let `DROP TABLE` cascade into their rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cobble, migrationPath, project, rows } from './support.ts';

const parents = `import { sql, type Kysely } from 'svc';
export async function up(db: Kysely<any>) {
  await sql\`create table parent (id integer primary key)\`.execute(db);
  await sql\`create table child (parent_id integer references parent(id) on delete cascade)\`.execute(db);
  await sql\`insert into parent values (1)\`.execute(db);
  await sql\`insert into child values (1)\`.execute(db);
}
export async function down(db: Kysely<any>) {
  await sql\`drop table child\`.execute(db);
  await sql\`drop table parent\`.execute(db);
}
`;

const rebuild = (within: string) => `import { sql, type Kysely } from 'svc';
${within}
export async function up(db: Kysely<any>) {
  await sql\`PRAGMA foreign_keys = OFF\`.execute(db);
  await sql\`create table parent_new (id integer primary key, name text)\`.execute(db);
  await sql\`insert into parent_new (id) select id from parent\`.execute(db);
  await sql\`drop table parent\`.execute(db);
  await sql\`alter table parent_new rename to parent\`.execute(db);
  await sql\`PRAGMA foreign_keys = ON\`.execute(db);
}
export async function down() {}
`;

test('a table rebuilt outside the transaction keeps the rows that reference it', async () => {
  const root = await project({
    [migrationPath('20250101000000_parents')]: parents,
    [migrationPath('20250101000001_rebuild_parent')]: rebuild('export const withinTransaction = false;'),
  });
  const ran = cobble(root, 'run');
  assert.equal(ran.status, 0, ran.stderr);
  assert.deepEqual(rows(root, 'select * from child'), [{ parent_id: 1 }]);
});

test('inside the transaction (the default) the same rebuild cascades: why the switch exists', async () => {
  const root = await project({
    [migrationPath('20250101000000_parents')]: parents,
    [migrationPath('20250101000001_rebuild_parent')]: rebuild(''),
  });
  assert.equal(cobble(root, 'run').status, 0);
  assert.deepEqual(rows(root, 'select * from child'), []);
});

test('withinTransaction that is no boolean is refused, naming the migration', async () => {
  const root = await project({ [migrationPath('20250101000000_odd')]: rebuild("export const withinTransaction = 'no';") });
  const ran = cobble(root, 'run');
  assert.equal(ran.status, 1);
  assert.match(ran.stderr, /Migration 20250101000000_odd exports withinTransaction as string: export true or false\./);
});
