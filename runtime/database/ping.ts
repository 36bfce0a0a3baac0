// A real round trip for the health endpoint: `select 1` through the application's
// connection, bounded by a timeout so a hung server cannot hang the health check.
import { sql } from 'kysely';
import { db } from './connection.ts';

export interface DatabasePing {
  status: 'ok' | 'down';
  latencyMs: number;
  error?: string;
}

export async function pingDatabase(timeoutMs: number): Promise<DatabasePing> {
  const started = performance.now();
  const latencyMs = () => Math.round((performance.now() - started) * 100) / 100;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([sql`select 1`.execute(db()), timeout]);
    return { status: 'ok', latencyMs: latencyMs() };
  } catch (e) {
    return { status: 'down', latencyMs: latencyMs(), error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
