// db(), closeDatabase() and pingDatabase() on a real SQLite file.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { sql } from 'kysely';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { closeDatabase, configureDatabase, db, pingDatabase } from '../../runtime/database/index.ts';
import { makeProject, removeProject } from '../support/project.ts';

const roots: string[] = [];
afterEach(closeDatabase);
after(async () => Promise.all(roots.map(removeProject)));

async function configured(path = DEFAULT_CONFIG.database.path): Promise<string> {
  const root = await makeProject({});
  roots.push(root);
  await configureDatabase({ root, config: { database: { driver: 'sqlite', path } } });
  return root;
}

interface Schema {
  notes: { id: number; title: string };
}

test('the SQLite file is created on the first query, not before, in WAL mode', async () => {
  const root = await configured();
  const file = join(root, 'shoebox', 'database.sqlite');
  const database = db<Schema>();
  assert.equal(existsSync(file), false);

  await database.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('title', 'text').execute();
  await database.insertInto('notes').values({ id: 1, title: 'first' }).execute();
  assert.equal(existsSync(file), true);
  assert.deepEqual(await database.selectFrom('notes').selectAll().execute(), [{ id: 1, title: 'first' }]);
  const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database);
  assert.deepEqual(rows, [{ journal_mode: 'wal' }]);
});

test('db() returns one instance until closeDatabase(); the next call reopens the same file', async () => {
  await configured('data/app.sqlite');
  const first = db<Schema>();
  assert.equal(db<Schema>(), first);
  await first.schema.createTable('notes').addColumn('id', 'integer').addColumn('title', 'text').execute();
  await first.insertInto('notes').values({ id: 7, title: 'kept' }).execute();

  await closeDatabase();
  await assert.rejects(first.selectFrom('notes').selectAll().execute()); // the old instance is closed
  const second = db<Schema>();
  assert.notEqual(second, first);
  assert.deepEqual(await second.selectFrom('notes').select('title').execute(), [{ title: 'kept' }]);
});

test('configureDatabase() with another project switches files', async () => {
  await configured();
  await db().schema.createTable('only_here').addColumn('id', 'integer').execute();
  await configured();
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db());
  assert.deepEqual(rows, []);
});

test('pingDatabase() runs a query: ok with a latency', async () => {
  await configured();
  const ping = await pingDatabase(1000);
  assert.equal(ping.status, 'ok');
  assert.equal(ping.error, undefined);
  assert.ok(ping.latencyMs >= 0);
});

test('pingDatabase() reports down, with the reason, when the file cannot be opened', async () => {
  const root = await configured('blocked/database.sqlite');
  writeFileSync(join(root, 'blocked'), 'a file where the folder should be');
  const ping = await pingDatabase(1000);
  assert.equal(ping.status, 'down');
  assert.match(ping.error ?? '', /blocked is a file, where the database's folder belongs/);
});

test('a database path that is a folder is reported by ping, not thrown', async () => {
  const root = await configured('folder.sqlite');
  mkdirSync(join(root, 'folder.sqlite'));
  const ping = await pingDatabase(1000);
  assert.equal(ping.status, 'down');
  assert.ok(ping.error);
});

test('an unknown driver is refused by configureDatabase(), naming the supported ones', async () => {
  const root = await configured();
  const database = db();
  const config = { database: { driver: 'postgres', path: '' } } as unknown as { database: typeof DEFAULT_CONFIG.database };
  await assert.rejects(configureDatabase({ root, config }), /Unknown database driver "postgres" in svc.json; supported: sqlite/);
  assert.equal(db(), database); // the working configuration stays
});
