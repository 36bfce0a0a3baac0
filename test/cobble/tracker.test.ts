// migrations.json that cannot be trusted is refused with a clear message and left alone;
// one that names a deleted file is reported.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { appliedNames, cobble, createTable, migrationPath, project, schema, trackerText } from './support.ts';

const tracker = 'shoebox/migrations/migrations.json';
const bad: Record<string, [string, RegExp]> = {
  empty: ['', /migrations\.json is empty/],
  blank: ['  \n', /migrations\.json is empty/],
  'not JSON': ['{"migrations": [', /migrations\.json is not valid JSON/],
  'wrong shape': ['[]', /migrations\.json is corrupt: expected an object with a "migrations" array/],
  'bad entry': ['{"migrations": [{"name": "x", "batch": "one", "appliedAt": "now"}]}', /migrations\.json is corrupt: migrations\[0\]\.batch/],
  'batch past 2^53': ['{"migrations": [{"name": "x", "batch": 9007199254740992, "appliedAt": "2025-01-01T00:00:00.000Z"}]}', /migrations\.json is corrupt: migrations\[0\]\.batch must be a whole number from 1 to 9007199254740991/],
};

for (const [label, [content, message]] of Object.entries(bad)) {
  test(`${label} migrations.json: run, status and rollback exit 1 and leave it untouched`, async () => {
    const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes'), [tracker]: content });
    for (const action of ['run', 'status', 'rollback']) {
      const result = cobble(root, action);
      assert.equal(result.status, 1, `${action}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /); // a message, not a stack trace
      assert.equal(trackerText(root), content);
    }
    assert.deepEqual(schema(root), []);
  });
}

test('a recorded migration whose file was deleted is reported; rollback of its batch is refused', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_create_tags')]: createTable('tags'),
  });
  assert.equal(cobble(root, 'run').status, 0);
  rmSync(join(root, migrationPath('20250101000001_create_tags')));

  const status = cobble(root, 'status', '--json');
  assert.equal(status.status, 0);
  assert.deepEqual(JSON.parse(status.stdout).missing, ['20250101000001_create_tags']);
  assert.match(cobble(root, 'status').stdout, /missing\s+1\s+\S+\s+20250101000001_create_tags/);

  const run = cobble(root, 'run');
  assert.equal(run.status, 0);
  assert.match(run.stdout, /20250101000001_create_tags: recorded as applied .* no longer exists/);

  const before = trackerText(root);
  const rollback = cobble(root, 'rollback');
  assert.equal(rollback.status, 1);
  assert.match(rollback.stderr, /Cannot roll back batch 1: shoebox\/migrations\/20250101000001_create_tags\.ts no longer exists/);
  assert.equal(trackerText(root), before);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);
});

test('applied migrations recorded for a database that is gone: run and rollback refuse, create nothing; status says so', async () => {
  const root = await project({
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
    [migrationPath('20250101000001_create_tags')]: createTable('tags'),
  });
  assert.equal(cobble(root, 'run').status, 0);
  const database = join(root, 'shoebox', 'database.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
  const before = trackerText(root);

  for (const action of ['run', 'rollback']) {
    const result = cobble(root, action);
    assert.equal(result.status, 1, `${action}: ${result.stdout}${result.stderr}`);
    assert.match(
      result.stderr,
      /migrations\.json records 2 applied migrations, but the database shoebox\/database\.sqlite does not exist\. Nothing was run\. .*delete shoebox\/migrations\/migrations\.json/,
    );
    assert.equal(trackerText(root), before);
    assert.equal(existsSync(database), false);
  }
  const status = cobble(root, 'status');
  assert.equal(status.status, 1, status.stdout + status.stderr);
  assert.match(status.stdout, /^database missing: shoebox\/migrations\/migrations\.json records 2 applied migrations, but the database shoebox\/database\.sqlite does not exist\. Restore/m);
  const json = cobble(root, 'status', '--json');
  assert.equal(json.status, 1);
  assert.equal(JSON.parse(json.stdout).databaseMissing, true);

  rmSync(join(root, 'shoebox', 'migrations', 'migrations.json'));
  assert.equal(cobble(root, 'run').status, 0);
  assert.deepEqual(appliedNames(root), ['20250101000000_create_notes', '20250101000001_create_tags']);
});

test('a database file that is no SQLite database: run and rollback refuse, name it, and leave it as it is', async () => {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  assert.equal(cobble(root, 'run').status, 0);
  const database = join(root, 'shoebox', 'database.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
  writeFileSync(database, 'these are my notes, not a database\n');
  for (const action of ['run', 'rollback']) {
    const result = cobble(root, action);
    assert.equal(result.status, 1, `${action}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, /shoebox\/database\.sqlite is not an SQLite database: nothing was run\./);
    assert.equal(readFileSync(database, 'utf8'), 'these are my notes, not a database\n');
  }
});
