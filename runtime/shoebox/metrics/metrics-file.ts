// shoebox/metrics/routes.json: the persisted counters of every process that serves the
// project (one `svc serve`, or several: PM2's instances, two ports). A save adds what its
// process counted since its last save to what the file holds, under a lock
// (file-lock.ts), so no process writes its own totals over another's. Written atomically
// (a temporary file renamed over the old one): a crash mid-write leaves the previous
// counts, never half a file. A file that does not parse is reported (`Save.damaged`) and replaced.
import { mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensureFolder, shoeboxPath } from '../paths.ts';
import { readRegularFile, readRegularFileSync } from '../regular-file.ts';
import { FileLock } from './file-lock.ts';
import { countsAdded } from './saved-routes.ts';

export interface SavedRoute {
  method: string;
  path: string;
  hits: number;
  totalMs: number;
}

/**
 * The last save each process made, by writer id: a process that exits during a save
 * (`process.exit()` in a handler) cannot tell whether that save reached the file, and
 * reads it here, so that its last counts are added once.
 */
export type Writers = Record<string, { save: number; at: number }>;

/** `dropped`: entries that were unreadable and are left out; the others are kept. */
export type LoadedMetrics =
  | { kind: 'missing' }
  | { kind: 'found'; routes: SavedRoute[]; dropped: number; writers: Writers }
  | { kind: 'corrupt'; reason: string }
  /** Written by a later svc, in a format this one does not know: read as nothing, never written over. */
  | { kind: 'newer'; version: number };

/** One process's save: what to add, given the number of its last save the file records (0 for none). */
export interface Save {
  writer: string;
  save: number;
  added(lastInFile: number): readonly SavedRoute[];
  /** What the file is taken to hold when it is missing or unreadable: the counts this process last saw in it. */
  ifUnreadable: readonly SavedRoute[];
  /** Told what was wrong with a damaged file before it is replaced. */
  damaged(problem: string): void;
}

const FORMAT_VERSION = 1;
/** A writer's entry is needed only while its process may still save: an hour is plenty. */
const WRITER_KEPT_MS = 3_600_000;

export class MetricsFile {
  private readonly lock: FileLock;

  private constructor(readonly path: string) {
    this.lock = new FileLock(path);
  }

  static of(root: string): MetricsFile {
    return new MetricsFile(shoeboxPath(root, 'metrics', 'routes.json'));
  }

  async read(): Promise<LoadedMetrics> {
    let text: string;
    try {
      // A FIFO in its place is unreadable, and replaced: it used to be waited on for a writer, for ever.
      text = (await readRegularFile(this.path)).toString('utf8');
    } catch (e) {
      return unread(e);
    }
    return parsed(text);
  }

  /** Adds a process's counts to the file's; resolves with what the file now holds. */
  async save(save: Save): Promise<SavedRoute[]> {
    await ensureFolder(dirname(this.path));
    return this.lock.run(async () => {
      const before = await this.read();
      const after = merged(before, save);
      const target = await realpath(this.path).catch(() => this.path); // realTarget(), without blocking
      const temporary = `${target}.${process.pid}.tmp`;
      // Removed when the write fails too: a full disk leaves what fitted, holding the space.
      await writeFile(temporary, fileText(after))
        .then(() => rename(temporary, target))
        .catch(async (e: unknown) => {
          await rm(temporary, { force: true });
          throw e;
        });
      return after.routes;
    });
  }

  /** `save`, synchronously, for a process that exits now; its own temporary file, as a `save` may be under way. */
  saveNow(save: Save): void {
    mkdirSync(dirname(this.path), { recursive: true });
    this.lock.runNow(() => {
      let before: LoadedMetrics;
      try {
        before = parsed(readRegularFileSync(this.path).toString('utf8'));
      } catch (e) {
        before = unread(e);
      }
      const target = realTarget(this.path);
      const temporary = `${target}.${process.pid}.exit.tmp`;
      try {
        writeFileSync(temporary, fileText(merged(before, save)));
        renameSync(temporary, target);
      } catch (e) {
        rmSync(temporary, { force: true });
        throw e;
      }
    });
  }
}

/**
 * Where a save renames its file to: what a link in the file's place points to (a volume
 * that outlives the container), which renaming over the link would leave behind, stale.
 */
function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function unread(e: unknown): LoadedMetrics {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
  return { kind: 'corrupt', reason: (e as Error).message };
}

function parsed(text: string): LoadedMetrics {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { kind: 'corrupt', reason: `not JSON: ${(e as Error).message}` };
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > FORMAT_VERSION) return { kind: 'newer', version };
  const routes = (value as { routes?: unknown } | null)?.routes;
  if (!Array.isArray(routes)) return { kind: 'corrupt', reason: 'expected { "routes": [{ "method", "path", "hits", "totalMs" }] }' };
  // One damaged entry costs that route's counts, not every route's.
  const readable = routes.filter(isSavedRoute);
  // Two entries of one route (a file merged or edited by hand) are both its counts; kept
  // apart, each read took up the difference between them again, a scrape at a time.
  return { kind: 'found', routes: countsAdded([], readable), dropped: routes.length - readable.length, writers: writersOf((value as { writers?: unknown }).writers) };
}

function merged(before: LoadedMetrics, save: Save): { routes: SavedRoute[]; writers: Writers } {
  if (before.kind === 'newer') throw newerFormat(before.version);
  const damage = damageOf(before);
  if (damage !== null) save.damaged(damage);
  const found = before.kind === 'found';
  const writers = found ? before.writers : {};
  const routes = countsAdded(found ? before.routes : save.ifUnreadable, save.added(writers[save.writer]?.save ?? 0));
  const now = Date.now();
  const kept: Writers = Object.create(null) as Writers;
  for (const [writer, entry] of Object.entries(writers)) if (now - entry.at < WRITER_KEPT_MS) kept[writer] = entry;
  kept[save.writer] = { save: save.save, at: now };
  return { routes, writers: kept };
}

/**
 * Rewritten in this svc's format, the file would lose what the later one keeps there: a
 * project served with an older svc again (a rollback) leaves it alone and counts anew.
 */
export const newerFormat = (version: number): Error =>
  new Error(`it is in format ${version}, written by a later svc (this one writes format ${FORMAT_VERSION}), and is left as it is: serve the project with that svc, or move the file away to count anew`);

function damageOf(loaded: LoadedMetrics): string | null {
  if (loaded.kind === 'corrupt') return `is unreadable (${loaded.reason}); it is replaced with the counts this process holds`;
  if (loaded.kind !== 'found' || loaded.dropped === 0) return null;
  const one = loaded.dropped === 1;
  return `held ${loaded.dropped} unreadable route ${one ? 'entry' : 'entries'}; ${one ? 'it counts' : 'they count'} from zero, the others are kept`;
}

function fileText({ routes, writers }: { routes: readonly SavedRoute[]; writers: Writers }): string {
  const body = { version: FORMAT_VERSION, routes: routes.map(({ method, path, hits, totalMs }) => ({ method, path, hits, totalMs })), writers };
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
    totalMs >= 0 &&
    // 2^53 ms is 285,000 years: more is damage, and shown in microseconds it is Infinity (JSON `null`).
    totalMs <= Number.MAX_SAFE_INTEGER
  );
}

function writersOf(value: unknown): Writers {
  const writers: Writers = Object.create(null) as Writers;
  if (value === null || typeof value !== 'object') return writers;
  for (const [writer, entry] of Object.entries(value)) {
    const { save, at } = (entry ?? {}) as Record<string, unknown>;
    if (Number.isSafeInteger(save) && Number.isFinite(at)) writers[writer] = { save: save as number, at: at as number };
  }
  return writers;
}
