// The application's database: one Kysely instance per process, set up when the server
// (or cobble) calls `configureDatabase` and closed by `closeDatabase()` on shutdown. The
// connection itself opens on the first query.
import { Kysely } from 'kysely';
import type { SvcConfig } from '../config.ts';
import { createDialect, databaseExists, databaseFileChecks } from './dialects.ts';

/**
 * The application's tables, for typed queries through `db()`. Declare them once:
 *
 *     declare module 'svc' {
 *       interface Database { notes: { id: Generated<number>; title: string } }
 *     }
 *
 * or pass a schema type per call: `db<MySchema>()`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by declaration merging
export interface Database {}

export interface DatabaseSetup {
  /** Project root: a relative `database.path` resolves against it. */
  root: string;
  /** svc.json after validation (only `database` is read). */
  config: Pick<SvcConfig, 'database'>;
}

let setup: DatabaseSetup | undefined;
let instance: Kysely<any> | undefined;

/**
 * Called at start-up; a previous configuration's connection is closed. An unknown driver
 * throws here rather than on the first request. Nothing is opened until the first query.
 */
export async function configureDatabase(next: DatabaseSetup): Promise<void> {
  const chosen = { root: next.root, config: { database: { ...next.config.database } } };
  const fresh = open(chosen);
  const previous = instance;
  [setup, instance] = [chosen, fresh];
  await previous?.destroy();
}

/** The application's database as a Kysely instance: `await db().selectFrom('notes').selectAll().execute()`. */
export function db<DB = Database>(): Kysely<DB> {
  if (!setup) throw notConfigured();
  instance ??= open(setup);
  return instance as Kysely<DB>;
}

/**
 * Whether the configured database exists yet. A check that only wants to look (the
 * health endpoint) asks first: its query would create an empty SQLite file, which
 * `cobble run` would then take for a database its migrations were applied to.
 */
export async function databaseCreated(): Promise<boolean> {
  if (!setup) throw notConfigured();
  return databaseExists(setup.config.database, setup.root);
}

/**
 * What the health check must report of the database file, or null: the file the
 * connection holds deleted or replaced since it opened (its connection is closed then, so
 * the next query opens the file at `database.path`), or a database not there yet that
 * could not be created.
 */
export async function databaseFileTrouble(): Promise<string | null> {
  if (!setup) throw notConfigured();
  const { database } = setup.config;
  const checks = databaseFileChecks(database);
  if (await checks.swapped(database, setup.root)) {
    await closeDatabase();
    return `${database.path} was deleted or replaced while open: what was written since went to the old file. Its connection is closed; the next query opens ${database.path}`;
  }
  if (await databaseExists(database, setup.root)) return null;
  return checks.creationProblem(database, setup.root);
}

const notConfigured = (): Error => new Error('The database is not configured yet: configureDatabase({ root, config }) runs when the server starts.');

/** Closes the connection if one is open; the next `db()` opens a new one. */
export async function closeDatabase(): Promise<void> {
  const current = instance;
  instance = undefined;
  if (current && setup) databaseFileChecks(setup.config.database).closed(setup.config.database, setup.root);
  await current?.destroy();
}

const open = (current: DatabaseSetup): Kysely<any> =>
  new Kysely<any>({ dialect: createDialect(current.config.database, current.root) });
