// `cobble create <Name>`: a new migration skeleton from templates/migration.hbs.
import { mkdir, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { renderTemplate } from '../../../compiler/emit/templates.ts';
import { shoeboxPath } from '../../shoebox/paths.ts';
import { CobbleError } from './cobble-error.ts';
import { listMigrations, nextTimestamp, userName } from './files.ts';

/** Writes the migration and returns its project-relative path. The name must already match NAME_PATTERN. */
export async function createMigration(root: string, name: string, now = new Date()): Promise<string> {
  const existing = await listMigrations(root);
  const clash = existing.find((m) => userName(m.name) === name);
  if (clash) throw new CobbleError(`A migration named ${name} already exists: shoebox/migrations/${clash.name}.ts`);
  const file = shoeboxPath(root, 'migrations', `${nextTimestamp(existing, now)}_${name}.ts`);
  await mkdir(shoeboxPath(root, 'migrations'), { recursive: true });
  // `create_notes` / `create_notes_table` start from a table definition, as in Laravel.
  const table = /^create_(\w+?)(?:_table)?$/i.exec(name)?.[1] ?? null;
  await writeFile(file, renderTemplate('migration.hbs', { name, table }), { flag: 'wx' });
  return relative(root, file).split('\\').join('/');
}
