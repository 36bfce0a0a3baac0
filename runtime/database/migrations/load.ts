// Imports a migration file through tsx's own loader, not the process's: a project whose
// package.json does not say `"type": "module"` would otherwise have its ES-module
// migrations read as CommonJS ("Unexpected token '{'").
import { stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { tsImport } from 'tsx/esm/api';
import { messageOf } from '../../shoebox/log.ts';
import { CobbleError } from './cobble-error.ts';
import { MIGRATIONS_FOLDER, type MigrationFile } from './files.ts';

export interface Migration {
  up(db: Kysely<any>): Promise<void>;
  down(db: Kysely<any>): Promise<void>;
  /**
   * `export const withinTransaction = false`: run without the transaction, as Laravel's
   * `$withinTransaction`: for what SQLite refuses in one (`VACUUM`) or ignores there
   * (`PRAGMA foreign_keys = OFF` before rebuilding a table that others reference).
   */
  withinTransaction?: boolean;
}

export async function loadMigration(file: MigrationFile): Promise<Migration> {
  let module: Partial<Migration>;
  try {
    // The modification time in the URL: a file edited after a failed run in the same
    // process (`main()` called twice, as tests do) is imported afresh, not from the cache.
    const url = `${pathToFileURL(file.path).href}?mtime=${(await stat(file.path)).mtimeMs}`;
    module = (await tsImport(url, import.meta.url)) as Partial<Migration>;
  } catch (e) {
    // esbuild names the file by its absolute path; svc's messages name project files from the project.
    const why = notLoaded(e).split(file.path).join(`${MIGRATIONS_FOLDER}/${file.name}.ts`);
    throw new CobbleError(`Migration ${file.name} could not be loaded: ${why}`);
  }
  for (const step of ['up', 'down'] as const) {
    if (typeof module[step] !== 'function') throw new CobbleError(`Migration ${file.name} does not export a function ${step}(db).`);
  }
  if (module.withinTransaction !== undefined && typeof module.withinTransaction !== 'boolean') {
    throw new CobbleError(`Migration ${file.name} exports withinTransaction as ${typeof module.withinTransaction}: export true or false.`);
  }
  return module as Migration;
}

/**
 * Why an import failed. `'svc'` unresolved means an application without svc installed
 * whose migrations load as CommonJS, where svc cobble's resolve hook does not reach
 * (compiler/cli/svc-resolve-hook.mjs): say how to fix it, without Node's require stack.
 */
function notLoaded(error: unknown): string {
  // A module's top level may throw anything, `throw 'no config'` too.
  const message = messageOf(error);
  const [first] = message.split('\n');
  if (!/^Cannot find (module|package) 'svc'/.test(first!)) return message;
  return `${first}; svc is not installed in this application: install it (docs/guide.md, "A project of your own"), or give the application's package.json "type": "module", whose migrations find the svc that runs them.`;
}
