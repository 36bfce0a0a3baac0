// `cobble create <Name>`: a new migration skeleton from templates/migration.hbs.
import { mkdir, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { renderTemplate } from '../../../compiler/emit/templates.ts';
import { shoeboxPath } from '../../shoebox/paths.ts';
import { CobbleError } from './cobble-error.ts';
import { nextTimestamp, readMigrationsFolder, userName } from './files.ts';

/** Writes the migration and returns its project-relative path. The name must already match NAME_PATTERN. */
export async function createMigration(root: string, name: string, now = new Date()): Promise<string> {
  const existing = (await readMigrationsFolder(root)).files;
  const clash = existing.find((m) => userName(m.name) === name);
  if (clash) throw new CobbleError(`A migration named ${name} already exists: shoebox/migrations/${clash.name}.ts`);
  const file = shoeboxPath(root, 'migrations', `${nextTimestamp(existing, now)}_${name}.ts`);
  await mkdir(shoeboxPath(root, 'migrations'), { recursive: true });
  const table = tableToCreate(name);
  await writeFile(file, renderTemplate('migration.hbs', { name, table }), { flag: 'wx' });
  return relative(root, file).split('\\').join('/');
}

/**
 * `create_notes`, `create_notes_table` (Laravel's way) and `CreateNotes`, `CreateNotesTable`
 * start from a table definition: `notes`. A camel-cased name becomes snake case
 * (`CreateBlogPosts` → `blog_posts`). `null` for any other name.
 */
export function tableToCreate(name: string): string | null {
  const snake = /^create_/i.test(name) ? name : name.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
  return /^create_(\w+?)(?:_table)?$/i.exec(snake)?.[1] ?? null;
}
