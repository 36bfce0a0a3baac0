// A real round trip for the health endpoint: `select 1` through the application's
// connection, bounded by a timeout so a hung server cannot hang the health check. A
// database not created yet is left alone (connection.ts, `databaseCreated`), unless it
// could not be created; one deleted or replaced under its connection is down.
import { sql } from 'kysely';
import { databaseCreated, databaseFileTrouble, db } from './connection.ts';

export interface DatabasePing {
  status: 'ok' | 'down';
  latencyMs: number;
  error?: string;
  /** Said of a database not created yet: nothing is wrong, and nothing is opened to look. */
  note?: string;
}

export async function pingDatabase(timeoutMs: number): Promise<DatabasePing> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 100) / 100;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const trouble = await Promise.race([databaseFileTrouble(), timeout]);
    if (trouble !== null) return { status: 'down', latencyMs: latencyMs(), error: trouble };
    if (!(await Promise.race([databaseCreated(), timeout]))) return { status: 'ok', latencyMs: latencyMs(), note: 'not created yet: the first query creates it' };
    await Promise.race([sql`select 1`.execute(db()), timeout]);
    return { status: 'ok', latencyMs: latencyMs() };
  } catch (e) {
    return { status: 'down', latencyMs: latencyMs(), error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
