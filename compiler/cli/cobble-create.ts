// `cobble create <Name>`: a new migration skeleton from templates/migration.hbs. A
// command of the CLI's: the runtime, which runs migrations, never writes one.
import { mkdir, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { renderTemplate } from '../emit/templates.ts';
import { shoeboxPath } from '../../runtime/shoebox/paths.ts';
import { CobbleError } from '../../runtime/database/migrations/cobble-error.ts';
import { nextTimestamp, readMigrationsFolder, userName } from '../../runtime/database/migrations/files.ts';

/** Writes the migration and returns its project-relative path. The name must already match NAME_PATTERN. */
export async function createMigration(root: string, name: string, now = new Date()): Promise<string> {
  const existing = (await readMigrationsFolder(root)).files;
  const clash = existing.find((m) => userName(m.name) === name);
  if (clash) throw alreadyExists(name, `shoebox/migrations/${clash.name}.ts`);
  const file = shoeboxPath(root, 'migrations', `${nextTimestamp(existing, now)}_${name}.ts`);
  await mkdir(shoeboxPath(root, 'migrations'), { recursive: true });
  const table = tableToCreate(name);
  const written = relative(root, file).split('\\').join('/');
  try {
    await writeFile(file, renderTemplate('migration.hbs', { name, table }), { flag: 'wx' });
  } catch (e) {
    throw refusedWrite(e as NodeJS.ErrnoException, name, written);
  }
  return written;
}

const alreadyExists = (name: string, file: string): CobbleError => new CobbleError(`A migration named ${name} already exists: ${file}`);

/** The errors a user can cause, as a message; anything else is a bug worth its stack. */
function refusedWrite(e: NodeJS.ErrnoException, name: string, file: string): Error {
  // Another `cobble create` of the same name, in the same second, got there first.
  if (e.code === 'EEXIST') return alreadyExists(name, file);
  // The limit is the file system's (255 bytes on most), so it is not checked beforehand.
  if (e.code === 'ENAMETOOLONG') return new CobbleError(`The migration name is too long for a file name (${name.length} characters): shorten it.`);
  return e;
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
