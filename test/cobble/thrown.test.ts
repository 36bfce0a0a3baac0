// A migration may throw anything, and may start work it does not await: each failure is
// one line naming the migration, exit 1, never Node's stack trace; the tracker says
// exactly what committed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appliedNames, cobble, createTable, migrationPath, project, schema } from './support.ts';

const noStack = (stderr: string): void => assert.doesNotMatch(stderr, /\n\s+at /, stderr);

const tables = (root: string): string[] => schema(root).filter((entry) => entry.startsWith('table '));

const thrown: Array<[string, string, RegExp]> = [
  ['an object without a prototype', 'Object.create(null)', /failed and was rolled back: \[Object: null prototype\] \{\}$/m],
  ['a plain object', '{ code: 1 }', /failed and was rolled back: \{ code: 1 \}$/m],
  ['an object whose toString() throws', "{ toString() { throw new Error('no'); } }", /failed and was rolled back: \{ toString: \[Function: toString\] \}$/m],
];

for (const [what, value, message] of thrown) {
  test(`up() throwing ${what}: exit 1, its name and the value, rolled back`, async () => {
    const root = await project({
      [migrationPath('20250101000000_odd')]: `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
  throw ${value};
}
export async function down(): Promise<void> {}
`,
    });
    const result = cobble(root, 'run');
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /^svc cobble: Migration 20250101000000_odd /m);
    assert.match(result.stderr, message);
    noStack(result.stderr);
    assert.deepEqual(appliedNames(root), []);
    assert.deepEqual(tables(root), []);
  });
}

test('a migration whose top level throws a string: could not be loaded, with the string', async () => {
  const root = await project({ [migrationPath('20250101000000_odd')]: `throw 'no settings';\nexport async function up(): Promise<void> {}\nexport async function down(): Promise<void> {}\n` });
  const result = cobble(root, 'run');
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /^svc cobble: Migration 20250101000000_odd could not be loaded: no settings$/m);
  noStack(result.stderr);
});

test('work up() started and did not await, failing while up() runs: the migration fails and is rolled back', async () => {
  for (const [name, aside] of [
    ['timer', "setTimeout(() => { throw new Error('the audit failed'); }, 5);"],
    ['promise', "void Promise.reject(new Error('the audit failed'));"],
  ]) {
    const root = await project({
      [migrationPath('20250101000000_create_notes')]: createTable('notes'),
      [migrationPath(`20250101000001_${name}`)]: `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
  ${aside}
  await new Promise((resolve) => setTimeout(resolve, 200));
}
export async function down(): Promise<void> {}
`,
    });
    const result = cobble(root, 'run');
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, new RegExp(`^svc cobble: Migration 20250101000001_${name} failed and was rolled back: code that up\\(db\\) started and did not await failed: Error: the audit failed$`, 'm'));
    noStack(result.stderr);
    assert.deepEqual(appliedNames(root), ['20250101000000_create_notes']);
    assert.deepEqual(tables(root), ['table notes: CREATE TABLE "notes" ("id" integer)']);
  }
});

test('work up() did not await, failing once up() has returned: said in one line, exit 1; the migration stays recorded', async () => {
  const root = await project({
    // The late query waits until the migration is recorded, so it always comes after the commit.
    [migrationPath('20250101000000_forgetful')]: `import { existsSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  const waiting = setInterval(() => {
    if (!existsSync('shoebox/migrations/migrations.json')) return;
    clearInterval(waiting);
    void sql\`create table late (id integer)\`.execute(db);
  }, 5);
}
export async function down(): Promise<void> {}
`,
  });
  const result = cobble(root, 'run');
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /Applied {6}20250101000000_forgetful \(batch 1\)/);
  assert.match(result.stderr, /^svc cobble: code a migration started and did not await failed outside its up\(\) and down\(\): Error: Transaction is already committed\. What it did is in no migration's transaction/m);
  noStack(result.stderr);
  assert.deepEqual(appliedNames(root), ['20250101000000_forgetful']);
});

for (const [direction, code] of [['up', 0], ['down', 3]] as const) {
  test(`${direction}() calling process.exit(${code}): exit 1, said in one line, nothing committed or recorded`, async () => {
    const exiting = `process.exit(${code});`;
    const root = await project({
      [migrationPath('20250101000000_create_notes')]: createTable('notes'),
      [migrationPath('20250101000001_abrupt')]: `import type { Kysely } from 'kysely';
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
  ${direction === 'up' ? exiting : ''}
}
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('half_done').execute();
  ${direction === 'down' ? exiting : ''}
}
`,
    });
    if (direction === 'down') assert.equal(cobble(root, 'run').status, 0);
    const result = cobble(root, direction === 'up' ? 'run' : 'rollback');
    assert.equal(result.status, 1, result.stdout + result.stderr);
    const said = direction === 'up' ? 'Migration 20250101000001_abrupt ended the process before it finished \\(process\\.exit\\(\\) in its code\\?\\): it is not recorded' : 'Rollback of 20250101000001_abrupt ended the process before it finished \\(process\\.exit\\(\\) in its code\\?\\): it is not undone in migrations\\.json';
    assert.match(result.stderr, new RegExp(`^svc cobble: ${said}, and its transaction was not committed\\.$`, 'm'));
    noStack(result.stderr);
    assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_abrupt'].slice(0, direction === 'up' ? 1 : 2));
    const expected = ['table notes: CREATE TABLE "notes" ("id" integer)'];
    if (direction === 'down') expected.unshift('table half_done: CREATE TABLE "half_done" ("id" integer)');
    assert.deepEqual(tables(root).sort(), expected.sort());
  });
}
