// `cobble create` and the usage errors of `cobble`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cobble, createTable, migrationPath, project } from './support.ts';
import { CobbleError } from '../../runtime/database/migrations/cobble-error.ts';
import { createMigration, tableToCreate } from '../../compiler/cli/cobble-create.ts';

test('a name with anything but letters, digits and underscores is a usage error', async () => {
  const root = await project();
  for (const name of ['create-notes', 'notes.table', '../escape', 'caf\u00e9', '']) {
    const result = cobble(root, 'create', name);
    assert.equal(result.status, 2, `${name}: ${result.stderr}`);
    assert.match(result.stderr, /letters, digits and underscores|needs a migration name/);
  }
  assert.equal(existsSync(join(root, 'shoebox', 'migrations')), false);
});

test('a name that already has a migration is refused', async () => {
  const root = await project({ [migrationPath('20250101000000_create_notes')]: createTable('notes') });
  const result = cobble(root, 'create', 'create_notes');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /create_notes already exists: shoebox\/migrations\/20250101000000_create_notes\.ts/);
  assert.deepEqual(readdirSync(join(root, 'shoebox', 'migrations')), ['20250101000000_create_notes.ts']);
});

test('after a migration stamped in the year 9999 no later name exists: refused, not sorted first', async () => {
  const root = await project({ [migrationPath('99991231235959_far_future')]: createTable('future') });
  const result = cobble(root, 'create', 'create_notes');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /no timestamp comes after 99991231235959_far_future's: rename that file/);
  assert.deepEqual(readdirSync(join(root, 'shoebox', 'migrations')), ['99991231235959_far_future.ts']);
});

test('a name too long for the file system: exit 1 with a message, no stack trace, no file', async () => {
  const root = await project();
  const result = cobble(root, 'create', 'a'.repeat(300));
  assert.equal(result.status, 1);
  assert.match(result.stderr, /migration name is too long for a file name \(300 characters\)/);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.deepEqual(readdirSync(join(root, 'shoebox', 'migrations')), []);
});

test('the same name created twice at once, in the same second: one file, the other refused with a message', async () => {
  const root = await project();
  const now = new Date();
  // Both read the folder before either writes, as two processes started together do.
  const results = await Promise.allSettled([createMigration(root, 'same_name', now), createMigration(root, 'same_name', now)]);
  assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
  const refused = results.find((r) => r.status === 'rejected')!.reason as Error;
  assert.ok(refused instanceof CobbleError, String(refused));
  assert.match(refused.message, /^A migration named same_name already exists: shoebox\/migrations\/\d{14}_same_name\.ts$/);
  assert.equal(readdirSync(join(root, 'shoebox', 'migrations')).length, 1);
});

test('cobble without a subcommand, with an unknown one, or create without a name: exit 2 with help', async () => {
  const root = await project();
  const cases: [string[], RegExp][] = [
    [[], /cobble needs a subcommand/],
    [['migrate'], /Unknown cobble subcommand: migrate/],
    [['create'], /needs a migration name/],
    [['run', 'extra'], /cobble run takes no argument/],
  ];
  for (const [args, message] of cases) {
    const result = cobble(root, ...args);
    assert.equal(result.status, 2, args.join(' '));
    assert.match(result.stderr, message);
    assert.match(result.stdout + result.stderr, /cobble create <Name>/); // the command's help
  }
});

test('create_<table>, CreateTable and their *_table / *Table forms start from a table definition', () => {
  const tables = ['create_notes', 'create_notes_table', 'CreateNotes', 'CreateNotesTable', 'CreateBlogPosts', 'AddIndexToNotes', 'recreate_x'].map(tableToCreate);
  assert.deepEqual(tables, ['notes', 'notes', 'notes', 'notes', 'blog_posts', null, null]);
});
