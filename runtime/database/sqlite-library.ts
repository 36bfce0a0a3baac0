// Which SQLite library opens a file: better-sqlite3, or on Node 24 and later the built-in
// node:sqlite. better-sqlite3 12 (13 needs Node 22, svc supports 20) wraps its objects in
// node::ObjectWrap, whose destructor, since Node 24.19, aborts the process when the garbage
// collector frees a statement outside a JavaScript context (nodejs/node#65446): a server
// that dies at a random idle moment, a `cobble run` that dies as it exits. node:sqlite has
// no such wrapper, and from Node 24 on it needs no flag and prints no warning (on Node 22
// it warns, and better-sqlite3 is sound there). Both are seen through Kysely's interface.
import { accessSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** A connection: Kysely's interface, and `exec` for pragmas and locks. */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
}

const SQLITE_LIBRARY = Number(process.versions.node.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3';

export interface ConnectOptions {
  /** Fail rather than create a missing file. */
  mustExist?: boolean;
  /**
   * How long a statement waits for another connection's lock, inside SQLite and so
   * blocking the event loop; by default not at all: it fails with SQLITE_BUSY (`isBusy`)
   * and the caller decides how to wait.
   */
  busyTimeoutMs?: number;
}

/**
 * better-sqlite3's compiled module does not load: built for another Node.js (a
 * `node_modules` installed under one version and run under another), or not built.
 * Nothing about the file or its folder is wrong, and the message says so.
 */
export class SqliteLibraryError extends Error {}

export function connectSqlite(file: string, { mustExist = false, busyTimeoutMs = 0 }: ConnectOptions = {}): SqliteConnection {
  if (SQLITE_LIBRARY === 'better-sqlite3') return openBetterSqlite3(file, { timeout: busyTimeoutMs, fileMustExist: mustExist });
  // By name at run time: the @types/node of Node 20 does not declare node:sqlite.
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as { DatabaseSync: new (file: string, options: { timeout: number }) => NodeDatabase };
  if (mustExist) accessSync(file);
  const database = new DatabaseSync(file, { timeout: busyTimeoutMs });
  return {
    exec: (sql) => database.exec(sql),
    close: () => database.close(),
    prepare: (sql) => statement(database.prepare(sql)),
  };
}

function openBetterSqlite3(file: string, options: BetterSqlite3.Options): SqliteConnection {
  try {
    return new BetterSqlite3(file, options); // its compiled module loads with the first connection
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_DLOPEN_FAILED') throw e;
    const why = (e as Error).message.replace(/\s+/g, ' ');
    throw new SqliteLibraryError(`better-sqlite3 does not load in Node.js ${process.version}: ${why} Run \`npm rebuild better-sqlite3\` with this Node.js.`, { cause: e });
  }
}

/** The part of node:sqlite's `DatabaseSync` and `StatementSync` used here. */
interface NodeDatabase {
  exec(sql: string): void;
  close(): void;
  prepare(sql: string): NodeStatement;
}

interface NodeStatement {
  columns(): unknown[];
  all(...parameters: unknown[]): object[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<object>;
}

/** Kysely passes parameters as one array, node:sqlite takes them one by one; rows come as plain objects, as better-sqlite3 gives them. */
function statement(prepared: NodeStatement): SqliteStatement {
  return {
    reader: prepared.columns().length > 0,
    all: (parameters) => prepared.all(...(parameters)).map(plain),
    run: (parameters) => prepared.run(...(parameters)),
    *iterate(parameters) {
      for (const row of prepared.iterate(...(parameters))) yield plain(row);
    },
  };
}

const plain = (row: object): object => ({ ...row });

/** Whether a query failed because another connection holds the lock (not SQLITE_BUSY_SNAPSHOT, which no wait can fix). */
export function isBusy(error: unknown): boolean {
  const { code, errcode } = error as { code?: string; errcode?: number };
  return code === 'SQLITE_BUSY' || (code === 'ERR_SQLITE_ERROR' && errcode === 5);
}
