// One Kysely dialect factory per `database.driver`. Supporting PostgreSQL or MySQL later
// means adding `{ driver: 'postgres'; url: string }` to the config union and an entry
// here, in `presence` and in `soundness` (the mapped types below refuse to compile until there is one); application code,
// which only ever sees `db()`, does not change.
import { access, open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Dialect } from 'kysely';
import type { SvcConfig } from '../config.ts';
import { openSqlite, sqliteClosed, sqliteCreationProblem, sqliteFileSwapped } from './sqlite.ts';
import { PatientSqliteDialect } from './sqlite-busy.ts';

export type DatabaseConfig = SvcConfig['database'];
type Driver = DatabaseConfig['driver'];
type DialectFactory<D extends Driver> = (config: Extract<DatabaseConfig, { driver: D }>, root: string) => Dialect;

const factories: { [D in Driver]: DialectFactory<D> } = {
  // Kysely calls the function on the first query, so the file is opened (and created) lazily.
  sqlite: (config, root) => new PatientSqliteDialect({ database: () => openSqlite(resolve(root, config.path)) }),
};

const presence: { [D in Driver]: (config: Extract<DatabaseConfig, { driver: D }>, root: string) => Promise<boolean> } = {
  // "No such file", or a file where one of its folders should be, is a database not
  // created yet; a path that cannot be looked at (no permission) is left for the query to report.
  sqlite: (config, root) => access(resolve(root, config.path)).then(() => true, (e: NodeJS.ErrnoException) => e.code !== 'ENOENT' && e.code !== 'ENOTDIR'),
};

interface FileChecks<C> {
  /** The file the open connection holds is no longer the one at its path (deleted, replaced). */
  swapped(config: C, root: string): Promise<boolean>;
  /** Why a database not there yet could not be created, or null. */
  creationProblem(config: C, root: string): Promise<string | null>;
  /** The connection is closed: forget what it held. */
  closed(config: C, root: string): void;
}

const fileChecks: { [D in Driver]: FileChecks<Extract<DatabaseConfig, { driver: D }>> } = {
  sqlite: {
    swapped: (config, root) => sqliteFileSwapped(resolve(root, config.path)),
    creationProblem: (config, root) => sqliteCreationProblem(resolve(root, config.path)),
    closed: (config, root) => void sqliteClosed(resolve(root, config.path)),
  },
};

export const databaseFileChecks = (config: DatabaseConfig): FileChecks<DatabaseConfig> => fileChecks[config.driver] as FileChecks<DatabaseConfig>;

/** The first bytes of every SQLite database file (an empty file is a database without tables). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

const soundness: { [D in Driver]: (config: Extract<DatabaseConfig, { driver: D }>, root: string) => Promise<string | null> } = {
  sqlite: async (config, root) => {
    const handle = await open(resolve(root, config.path), 'r').catch(() => null);
    if (handle === null) return null; // not there yet, or not readable: the first query says why
    try {
      const header = Buffer.alloc(SQLITE_HEADER.length);
      const { bytesRead } = await handle.read(header, 0, header.length, 0);
      return bytesRead === 0 || header.equals(SQLITE_HEADER) ? null : `${config.path} is not an SQLite database`;
    } catch {
      return null; // a folder, say: left for the query to report
    } finally {
      await handle.close();
    }
  },
};

/**
 * What is wrong with a database that exists but is none (a file of something else at
 * `database.path`), or null: said when the server starts, rather than by the 500 of
 * every request that uses it.
 */
export async function databaseFileProblem(config: DatabaseConfig, root: string): Promise<string | null> {
  const check = soundness[config.driver] as ((config: DatabaseConfig, root: string) => Promise<string | null>) | undefined;
  return check ? check(config, root) : null; // an unknown driver: configureDatabase() says so
}

/** Whether the database already exists (or cannot be looked at): opening a SQLite file that does not creates an empty one. */
export function databaseExists(config: DatabaseConfig, root: string): Promise<boolean> {
  return presence[config.driver](config, root);
}

export function createDialect(config: DatabaseConfig, root: string): Dialect {
  const factory = factories[config.driver] as DialectFactory<Driver> | undefined;
  if (!factory) {
    throw new Error(`Unknown database driver "${String(config.driver)}" in svc.json; supported: ${Object.keys(factories).join(', ')}.`);
  }
  return factory(config, root);
}
