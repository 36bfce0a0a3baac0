// create → run → status → rollback → run, through the real CLI on a real SQLite file.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeFiles } from '../support/project.ts';
import { appliedNames, cobble, createTable, migrationPath, project, rows, schema, trackerText } from './support.ts';

const migrationFiles = (root: string) => readdirSync(join(root, 'shoebox', 'migrations')).filter((f) => f.endsWith('.ts')).sort();

test('create → run → status → rollback → run', async () => {
  const root = await project();

  const created = cobble(root, 'create', 'create_notes');
  assert.equal(created.status, 0, created.stderr);
  const [file] = migrationFiles(root);
  assert.match(file!, /^\d{14}_create_notes\.ts$/);
  assert.match(created.stdout, new RegExp(`shoebox/migrations/${file}`));
  const name = file!.slice(0, -3);
  const source = readFileSync(join(root, 'shoebox', 'migrations', file!), 'utf8');
  assert.match(source, /export async function up\(db: Kysely<any>\)/);
  assert.match(source, /export async function down\(db: Kysely<any>\)/);
  assert.match(source, /from "svc";/); // not kysely: an app need not depend on it

  const pending = JSON.parse(cobble(root, 'status', '--json').stdout);
  assert.deepEqual(pending, { databaseMissing: false, applied: [], pending: [name], missing: [], ignored: [] });

  const ran = cobble(root, 'run');
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, new RegExp(`Applied\\s+${name}`));
  assert.ok(schema(root).some((entry) => entry.startsWith('table notes:')));
  assert.deepEqual(appliedNames(root), [name]);
  assert.deepEqual(rows(root, 'pragma journal_mode'), [{ journal_mode: 'wal' }]);

  const status = JSON.parse(cobble(root, 'status', '--json').stdout);
  assert.equal(status.applied.length, 1);
  assert.equal(status.applied[0].name, name);
  assert.equal(status.applied[0].batch, 1);
  assert.ok(!Number.isNaN(Date.parse(status.applied[0].appliedAt)));
  assert.deepEqual(status.pending, []);
  const table = cobble(root, 'status');
  assert.equal(table.status, 0);
  assert.match(table.stdout, new RegExp(`applied\\s+1\\s+\\S+\\s+${name}`));

  const rolledBack = cobble(root, 'rollback');
  assert.equal(rolledBack.status, 0, rolledBack.stderr);
  assert.match(rolledBack.stdout, new RegExp(`Rolled back\\s+${name}`));
  assert.ok(!schema(root).some((entry) => entry.startsWith('table notes:')));
  assert.deepEqual(appliedNames(root), []);

  const again = cobble(root, 'run');
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(appliedNames(root), [name]);
  assert.ok(schema(root).some((entry) => entry.startsWith('table notes:')));
  assert.match(cobble(root, 'run').stdout, /Nothing to migrate/);
});

test('each run is one batch; rollback undoes only the last batch, newest first', async () => {
  const root = await project({
    [migrationPath('20250101000000_first')]: createTable('first'),
    [migrationPath('20250101000001_second')]: createTable('second'),
  });
  assert.equal(cobble(root, 'run').status, 0);
  await writeFiles(root, {
    [migrationPath('20250101000002_third')]: createTable('third'),
    [migrationPath('20250101000003_fourth')]: createTable('fourth'),
  });
  const second = cobble(root, 'run');
  assert.equal(second.status, 0, second.stderr);
  const batches = JSON.parse(trackerText(root)!).migrations.map((m: { name: string; batch: number }) => [m.name, m.batch]);
  assert.deepEqual(batches, [
    ['20250101000000_first', 1],
    ['20250101000001_second', 1],
    ['20250101000002_third', 2],
    ['20250101000003_fourth', 2],
  ]);

  const rolledBack = cobble(root, 'rollback');
  assert.equal(rolledBack.status, 0, rolledBack.stderr);
  assert.ok(rolledBack.stdout.indexOf('20250101000003_fourth') < rolledBack.stdout.indexOf('20250101000002_third'));
  assert.deepEqual(appliedNames(root), ['20250101000000_first', '20250101000001_second']);
  const tables = schema(root).filter((entry) => entry.startsWith('table '));
  assert.deepEqual(tables.map((entry) => entry.split(':')[0]), ['table first', 'table second']);

  assert.equal(cobble(root, 'rollback').status, 0);
  assert.deepEqual(appliedNames(root), []);
  const nothing = cobble(root, 'rollback');
  assert.equal(nothing.status, 0);
  assert.match(nothing.stdout, /Nothing to roll back/);
});

test('migrations run in file-name order, and created ones keep their creation order', async () => {
  const root = await project();
  for (const name of ['create_zebras', 'add_apples', 'create_mice']) assert.equal(cobble(root, 'create', name).status, 0);
  assert.deepEqual(migrationFiles(root).map((f) => f.slice(15, -3)), ['create_zebras', 'add_apples', 'create_mice']);
  const ran = cobble(root, 'run');
  assert.equal(ran.status, 0, ran.stderr);
  assert.deepEqual(appliedNames(root).map((n) => n.slice(15)), ['create_zebras', 'add_apples', 'create_mice']);
});

test('migrations run in a project whose package.json does not say "type": "module"', async () => {
  const root = await project({ 'package.json': JSON.stringify({ name: 'commonjs-app', private: true }) });
  assert.equal(cobble(root, 'create', 'create_widgets').status, 0);
  const ran = cobble(root, 'run');
  assert.equal(ran.status, 0, ran.stderr);
  assert.ok(schema(root).some((entry) => entry.startsWith('table widgets:')));
  assert.equal(cobble(root, 'rollback').status, 0);
  assert.ok(!schema(root).some((entry) => entry.startsWith('table widgets:')));
});

test('code files not named as migrations are reported by status and run, not silently skipped', async () => {
  const root = await project({
    'shoebox/migrations/add_index.ts': 'export async function up() {}\nexport async function down() {}\n',
    'shoebox/migrations/20250101000000_shouting.TS': 'export async function up() {}\nexport async function down() {}\n',
    'shoebox/migrations/notes.md': 'not code',
  });
  const status = JSON.parse(cobble(root, 'status', '--json').stdout);
  assert.deepEqual(status.ignored, ['20250101000000_shouting.TS', 'add_index.ts']);
  assert.match(cobble(root, 'status').stdout, /ignored: shoebox\/migrations\/add_index\.ts is not run: a migration file is named <YYYYMMDDHHmmss>_<Name>\.ts/);
  const ran = cobble(root, 'run');
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /shoebox\/migrations\/add_index\.ts is not run/);
});
