// `cobble create` and the usage errors of `cobble`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cobble, createTable, migrationPath, project } from './support.ts';
import { tableToCreate } from '../../runtime/database/migrations/create.ts';

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
