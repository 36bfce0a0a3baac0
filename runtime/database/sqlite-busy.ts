// Waiting for SQLite's write lock without freezing the server. Another process (`cobble
// run`, another worker) may hold it; better-sqlite3 would wait inside SQLite's busy
// handler, synchronously, and every other request, a health check or a plain GET with no
// database in it, would stall with it (up to its 5 s timeout, per waiting query). The
// connection instead gives up at once (no busy timeout, sqlite-library.ts), and a query
// refused with SQLITE_BUSY is retried here after a timer, for as long as better-sqlite3
// would have waited. A refused statement changed nothing, so running it again is what
// SQLite's own busy handler does too. SQLITE_BUSY_SNAPSHOT (a transaction whose snapshot
// another writer made stale) is not retried: no wait can fix it.
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDialectConfig } from 'kysely';
import { isBusy } from './sqlite-library.ts';

/** better-sqlite3's default busy timeout. */
export const BUSY_WAIT_MS = 5000;
const LONGEST_PAUSE_MS = 50;

export class PatientSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new PatientSqliteDriver(this.#config);
  }
}

class PatientSqliteDriver extends SqliteDriver {
  #patient: DatabaseConnection | undefined;

  // SQLite has one connection per driver; Kysely hands it back here for every query and
  // transaction statement (begin and commit included).
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#patient ??= {
      executeQuery: <R>(query: CompiledQuery) => retryWhileBusy(() => connection.executeQuery<R>(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
    return this.#patient;
  }
}

async function retryWhileBusy<R>(query: () => Promise<QueryResult<R>>): Promise<QueryResult<R>> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return await query();
    } catch (e) {
      if (!isBusy(e) || Date.now() >= deadline) throw e;
    }
    await sleep(pause);
  }
}
