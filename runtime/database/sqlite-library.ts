// Which SQLite library opens a file: Node's built-in node:sqlite wherever it has all svc
// uses of it (statement columns() and the busy timeout: Node 22.16 and later), otherwise
// better-sqlite3. A native module fails to load in any Node.js it was not built for: a
// `node_modules` installed under another version (nvm), or an npm whose `nodedir` setting
// points at another version's headers (machines that build addons against the system
// Node's), and node:sqlite cannot. Besides, better-sqlite3 12 (13 needs Node 22, svc
// supports 20) wraps its objects in node::ObjectWrap, whose destructor, since Node 24.19,
// aborts the process when the garbage collector frees a statement outside a JavaScript
// context (nodejs/node#65446). Both are seen through Kysely's interface.
import { accessSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** A connection: Kysely's interface, and `exec` for pragmas and locks. */
export interface SqliteConnection extends SqliteDatabase {
  exec(sql: string): void;
}

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
  const nodeSqlite = completeNodeSqlite();
  if (nodeSqlite === undefined) return openBetterSqlite3(file, { timeout: busyTimeoutMs, fileMustExist: mustExist });
  if (mustExist) accessSync(file);
  const database = new nodeSqlite.DatabaseSync(file, { timeout: busyTimeoutMs });
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
    throw new SqliteLibraryError(`better-sqlite3 does not load in Node.js ${process.version}: ${why} Run \`npm rebuild better-sqlite3\` with this Node.js (and an npm \`nodedir\` setting, if you have one, naming its headers), or use Node.js 22.16 or later, whose own node:sqlite svc takes instead.`, { cause: e });
  }
}

/** null until first asked; undefined where svc takes better-sqlite3. */
let loaded: NodeSqlite | undefined | null = null;

/** node:sqlite, if this Node.js has one with all svc uses of it: unflagged, with `columns()` (22.16 and later). */
function completeNodeSqlite(): NodeSqlite | undefined {
  if (loaded === null) {
    const module = withoutSqliteWarning(() => process.getBuiltinModule('node:sqlite') as NodeSqlite | undefined);
    loaded = typeof module?.StatementSync.prototype.columns === 'function' ? module : undefined;
  }
  return loaded;
}

/**
 * Node 22 warns on loading node:sqlite that it is experimental: a line on every start of
 * `svc serve` and `cobble` that says nothing to do. Any other warning still goes out.
 */
function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: never[]) {
    if (String(warning).startsWith('SQLite is an experimental feature')) return;
    return emit.call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

/** The part of node:sqlite used here; by name at run time, as the @types/node of Node 20 does not declare it. */
interface NodeSqlite {
  DatabaseSync: new (file: string, options: { timeout: number }) => NodeDatabase;
  StatementSync: { prototype: Partial<NodeStatement> };
}

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
