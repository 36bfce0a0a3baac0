// shoebox/metrics/routes.json: the persisted counters. Written atomically (a temporary
// file renamed over the old one), so a crash mid-write leaves the previous counts, never
// half a file. A file that does not parse is reported by the caller and replaced.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureFolder, shoeboxPath } from '../paths.ts';

export interface SavedRoute {
  method: string;
  path: string;
  hits: number;
  totalMs: number;
}

/** `dropped`: entries that were unreadable and are left out; the others are kept. */
export type LoadedMetrics = { kind: 'missing' } | { kind: 'found'; routes: SavedRoute[]; dropped: number } | { kind: 'corrupt'; reason: string };

const FORMAT_VERSION = 1;

export class MetricsFile {
  private constructor(readonly path: string) {}

  static of(root: string): MetricsFile {
    return new MetricsFile(shoeboxPath(root, 'metrics', 'routes.json'));
  }

  async read(): Promise<LoadedMetrics> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'corrupt', reason: (e as Error).message };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return { kind: 'corrupt', reason: `not JSON: ${(e as Error).message}` };
    }
    const routes = (parsed as { routes?: unknown } | null)?.routes;
    if (!Array.isArray(routes)) return { kind: 'corrupt', reason: 'expected { "routes": [{ "method", "path", "hits", "totalMs" }] }' };
    // One damaged entry costs that route's counts, not every route's.
    const readable = routes.filter(isSavedRoute);
    return { kind: 'found', routes: readable, dropped: routes.length - readable.length };
  }

  async write(routes: readonly SavedRoute[]): Promise<void> {
    const temporary = `${this.path}.${process.pid}.tmp`;
    await ensureFolder(dirname(this.path));
    await writeFile(temporary, fileText(routes));
    await rename(temporary, this.path).catch(async (e: unknown) => {
      await rm(temporary, { force: true });
      throw e;
    });
  }

  /** `write`, synchronously, for a process that exits now; its own temporary file, as a `write` may be under way. */
  writeNow(routes: readonly SavedRoute[]): void {
    const temporary = `${this.path}.${process.pid}.exit.tmp`;
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(temporary, fileText(routes));
    try {
      renameSync(temporary, this.path);
    } catch (e) {
      rmSync(temporary, { force: true });
      throw e;
    }
  }
}

function fileText(routes: readonly SavedRoute[]): string {
  const body = { version: FORMAT_VERSION, routes: routes.map(({ method, path, hits, totalMs }) => ({ method, path, hits, totalMs })) };
  return `${JSON.stringify(body, null, 2)}\n`;
}

function isSavedRoute(value: unknown): value is SavedRoute {
  if (value === null || typeof value !== 'object') return false;
  const { method, path, hits, totalMs } = value as Record<string, unknown>;
  return (
    typeof method === 'string' &&
    typeof path === 'string' &&
    Number.isSafeInteger(hits) &&
    (hits as number) >= 0 &&
    typeof totalMs === 'number' &&
    Number.isFinite(totalMs) &&
    totalMs >= 0
  );
}
