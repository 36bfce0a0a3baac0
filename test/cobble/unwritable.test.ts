// shoebox/migrations/ that cobble cannot write (a read-only deployment, another user's
// folder, something else in the way): one line saying what cobble writes, exit 1, no stack.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { cobble, createTable, migrationPath, project } from './support.ts';

const noStack = (stderr: string): void => assert.doesNotMatch(stderr, /\n\s+at /, stderr);

test('run and rollback that cannot open the migration lock say so in one line', async () => {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  // A folder where the lock file belongs: SQLite cannot open it, as it could not in a read-only folder.
  await mkdir(join(root, 'shoebox', 'migrations', '.lock'));
  for (const action of ['run', 'rollback']) {
    const result = cobble(root, action);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /^svc cobble: cannot take the migration lock shoebox\/migrations\/\.lock: .+\. svc cobble run and rollback write in shoebox\/migrations\//);
    noStack(result.stderr);
  }
});

test('a lock file that is no SQLite file (damaged, written by hand) is named, with what to do', async () => {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  await writeFile(join(root, 'shoebox', 'migrations', '.lock'), 'not a lock at all, just text that is long enough to be read as a header\n'.repeat(3));
  const result = cobble(root, 'run');
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^svc cobble: cannot take the migration lock shoebox\/migrations\/\.lock: .*not a database\. It holds no lock of cobble's: delete it/);
  noStack(result.stderr);
});

test('a database that cannot be opened is the trouble named, not the first migration', async () => {
  const root = await project({
    'svc.json': JSON.stringify({ database: { path: 'shoebox/data' } }),
    [migrationPath('20250101000000_create_notes')]: createTable('notes'),
  });
  await mkdir(join(root, 'shoebox', 'data')); // a folder where the database file belongs
  const result = cobble(root, 'run');
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^svc cobble: cannot open the database shoebox\/data: .+\. Nothing was run\.$/m);
  assert.doesNotMatch(result.stderr, /create_notes/);
  noStack(result.stderr);
});

test('create that cannot write its file says so in one line', async () => {
  const root = await project();
  await mkdir(join(root, 'shoebox'));
  await writeFile(join(root, 'shoebox', 'migrations'), 'a file where the folder belongs');
  const result = cobble(root, 'create', 'create_notes');
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^svc: cannot \w+ shoebox\/migrations\S* \(E[A-Z]+\); svc cobble writes migration files and migrations\.json in shoebox\/migrations\//);
  noStack(result.stderr);
});
