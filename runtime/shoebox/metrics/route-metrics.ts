// Per-route hits and durations (SPEC §7, §8). Recording a request is two typed-array
// writes indexed by route id: no map lookup, no allocation on the hot path. Built-in
// endpoints are never counted. The counters are persisted by `MetricsFile` on an
// interval and on `close()`, and restored at start, matched by method and pattern, so
// they survive a restart and a rebuild that renumbers the routes. The counts of a route
// the build lacks are kept in the file, unshown, and count on when it is back: a route
// file moved away and back, a branch switched, must not cost a route its history.
// Several processes may serve one project (PM2's instances, two ports): each save adds
// this process's counts since its last one to the file's and takes up what the others
// added, so the counters shown are the project's.
import { randomBytes } from 'node:crypto';
import type { ManifestRoute } from '../../manifest.ts';
import { HttpError } from '../../errors/http-error.ts';
import { inSvcWorker, type RouteCounts } from '../cluster-link.ts';
import { logAndWarn, logWriter } from '../log.ts';
import { linkToPrimary, type PrimaryLink } from './cluster.ts';
import { MetricsFile, newerFormat, type SavedRoute } from './metrics-file.ts';
import { countsSince } from './saved-routes.ts';

export interface RouteStat {
  /** The route's id in this build. */
  id: number;
  method: string;
  /** The route pattern, e.g. `/users/{id}`. */
  path: string;
  hits: number;
  totalMs: number;
  avgMs: number;
}

/** How often the counters are written to shoebox/metrics/ while serving. */
const SAVE_EVERY_MS = 10_000;
/** How often a worker of `svc serve --workers` reports its counts to the primary. */
const SHARE_EVERY_MS = 500;

/** What one build's counters need from another's: each build bundles its own copy of this class. */
interface LiveCounters {
  /** Stops saving once a save under way is written, and hands its counts over. */
  retire(): Promise<Handover>;
  /** Adds what a retired build counted after it handed its counts over. */
  absorb(late: readonly SavedRoute[]): void;
}

interface Handover {
  /** Every route's counts, those of routes not in the build too. */
  counts: SavedRoute[];
  /** What the file held after this process's last save. */
  saved: SavedRoute[];
}

/**
 * The open counters of this process by file. `svc tread` opens a rebuild's counters
 * before it closes the previous build's: those hand their counts over in memory and
 * stop saving, instead of writing older counts over the new ones. Requests the previous
 * build still finishes are handed over when it closes.
 */
const live: Map<string, LiveCounters> = ((globalThis as { [key: symbol]: unknown })[Symbol.for('svc.routeMetrics')] ??= new Map()) as Map<string, LiveCounters>;

export class RouteMetrics {
  private readonly hits: Float64Array;
  private readonly totalMs: Float64Array;
  /** 1 for application routes; built-in endpoints stay 0 and are skipped. */
  private readonly counted: Uint8Array;
  private readonly appRoutes: readonly ManifestRoute[];
  private changed = false;
  /** A save is being written (or sent to the primary) and has not finished. */
  private writing = false;
  /** The last save failed, and said so: a save is tried every 10 s, the failure is said once. */
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Once newer counters took this build's over: the counts handed over. */
  private handedOver: RouteStat[] | null = null;
  /** Saved counts of routes this build does not have, written back with its own. */
  private dormant: SavedRoute[] = [];
  /** In a worker: the primary, which owns the file and the whole server's counts (metrics/cluster.ts). */
  private primary: PrimaryLink | null = null;
  /** What the file held after this process's last save (or at start): what the next save adds to. */
  private saved: SavedRoute[] = [];
  /** This process among those that save to the file, and the number of its last save. */
  private readonly writer = `${process.pid}.${randomBytes(4).toString('hex')}`;
  private saves = 0;
  /** The save being written: its number, and every route's counts once it is in. */
  private underWay: { save: number; counts: SavedRoute[] } | null = null;

  private constructor(
    routes: readonly ManifestRoute[],
    private readonly root: string,
    private readonly file: MetricsFile,
  ) {
    const slots = routes.reduce((max, route) => Math.max(max, route.id + 1), 0);
    this.hits = new Float64Array(slots);
    this.totalMs = new Float64Array(slots);
    this.counted = new Uint8Array(slots);
    this.appRoutes = routes.filter((route) => route.handler.kind !== 'builtin');
    for (const route of this.appRoutes) this.counted[route.id] = 1;
  }

  /** Counters for `routes`, restored from `shoebox/metrics/` of `root` and saved there every few seconds. */
  static async open(root: string, routes: readonly ManifestRoute[]): Promise<RouteMetrics> {
    const metrics = new RouteMetrics(routes, root, MetricsFile.of(root));
    if (inSvcWorker()) {
      metrics.primary = linkToPrimary();
      metrics.timer = setInterval(() => void metrics.save(), SHARE_EVERY_MS).unref();
      return metrics;
    }
    const previous = live.get(metrics.file.path);
    live.set(metrics.file.path, metrics);
    if (previous) {
      const { counts, saved } = await previous.retire();
      metrics.restore(counts, saved);
      metrics.changed = true;
    } else await metrics.load();
    metrics.timer = setInterval(() => void metrics.save(), SAVE_EVERY_MS).unref();
    return metrics;
  }

  /** A damaged file is replaced at once, and the save says what was wrong with it. */
  private async load(): Promise<void> {
    const loaded = await this.file.read();
    if (loaded.kind === 'found') this.restore(loaded.routes, loaded.routes);
    if (loaded.kind === 'newer') this.cannotWrite(newerFormat(loaded.version));
    if (loaded.kind === 'corrupt' || (loaded.kind === 'found' && loaded.dropped > 0)) {
      this.changed = true;
      await this.save();
    }
  }

  record(routeId: number, durationMs: number): void {
    if (this.counted[routeId] !== 1) return;
    this.hits[routeId]! += 1;
    this.totalMs[routeId]! += durationMs;
    this.changed = true;
  }

  /** Every application route in id order, unvisited ones with zero hits: this process's counts. */
  stats(): RouteStat[] {
    return this.statsOf((id) => this.hits[id]!, (id) => this.totalMs[id]!);
  }

  /**
   * `stats()` for the metrics endpoint and the dashboard, so that no scrape shows less than
   * one before it, whichever process answers it: the project's counts once this process's
   * are in the file (several processes may serve it), or in a worker of `svc serve
   * --workers`, the whole server's counts as the primary holds them once this worker's
   * are in (cluster.ts).
   */
  async current(): Promise<RouteStat[]> {
    if (this.primary === null) {
      await (this.changed ? this.save() : this.refresh());
      return this.stats();
    }
    let totals: RouteCounts;
    try {
      totals = await this.primary.scrape(this.counts());
    } catch {
      // This worker alone would show fewer than a scrape before: a counter going down.
      throw new HttpError(503, 'The server is stopping: its metrics are not available from this process.');
    }
    return this.statsOf((id) => totals.hits[id] ?? 0, (id) => totals.totalMs[id] ?? 0);
  }

  private statsOf(hitsOf: (id: number) => number, totalMsOf: (id: number) => number): RouteStat[] {
    return this.appRoutes.map(({ id, method, pattern }) => {
      const hits = hitsOf(id);
      const totalMs = totalMsOf(id);
      return { id, method, path: pattern, hits, totalMs, avgMs: hits === 0 ? 0 : totalMs / hits };
    });
  }

  /** What the file would hold: every route's counts, those of routes not in the build too. */
  private persisted(): SavedRoute[] {
    return [...this.stats(), ...this.dormant];
  }

  /** Writes the counters if they changed; saves never overlap. */
  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      if (!this.toSave()) return;
      this.writing = true;
      try {
        await (this.primary ? this.primary.share(this.counts()) : this.addToFile());
        if (this.failing) process.stderr.write(`svc: ${this.file.path} is written again\n`);
        this.failing = false;
      } catch (e) {
        this.changed = true; // try again next time
        this.cannotWrite(e);
      } finally {
        this.writing = false;
      }
    });
    return this.saving;
  }

  /**
   * Adds what this process counted since its last save to the file, and takes up what the
   * project's other processes added since, so that a scrape shows the project's counts.
   */
  private async addToFile(): Promise<void> {
    const counts = this.persisted();
    const save = ++this.saves;
    const { saved } = this;
    this.underWay = { save, counts };
    try {
      const now = await this.file.save({ writer: this.writer, save, added: () => countsSince(counts, saved), ifUnreadable: saved, damaged: this.damaged });
      this.take(countsSince(now, counts));
      this.saved = now;
    } finally {
      this.underWay = null;
    }
  }

  /** Takes up what the project's other processes saved since this one last read the file. */
  private refresh(): Promise<void> {
    this.saving = this.saving.then(async () => {
      // A retired build's counts were handed over: what it adds now is counted twice.
      if (this.handedOver !== null) return;
      const loaded = await this.file.read();
      if (loaded.kind !== 'found') return;
      this.take(countsSince(loaded.routes, this.saved));
      this.saved = loaded.routes;
    });
    return this.saving;
  }

  /** Said with the first failure to replace the file, not again at each save that fails the same way (a folder in its place). */
  private readonly damaged = (problem: string): void => {
    if (!this.failing) logAndWarn(logWriter(this.root), 'metrics', `${this.file.path} ${problem}`);
  };

  /** Counts changed since the last save began, and this build still keeps them: taken as saved from here on. */
  private toSave(): boolean {
    if (!this.changed || this.handedOver !== null) return false;
    this.changed = false;
    return true;
  }

  private cannotWrite(e: unknown): void {
    if (!this.failing) process.stderr.write(`svc: cannot write ${this.file.path}: ${(e as Error).message}; said once, tried again at each save\n`);
    this.failing = true;
  }

  /**
   * `save`, synchronously, for a process that exits now (a second Ctrl-C, `process.exit()`
   * in a handler, an exception nothing caught): a worker's counts go to the primary.
   */
  saveNow(): void {
    // A save under way would not finish: its counts are written again with any since.
    if (!this.toSave() && !(this.writing && this.handedOver === null)) return;
    try {
      if (this.primary) this.primary.share(this.counts()).catch(() => {});
      else this.addToFileNow();
    } catch (e) {
      this.cannotWrite(e);
    }
  }

  /**
   * `addToFile`, synchronously. A save under way may or may not have reached the file:
   * the file's record of this process's last save tells which counts are still to add.
   */
  private addToFileNow(): void {
    const counts = this.persisted();
    const { saved, underWay } = this;
    const added = (lastInFile: number): SavedRoute[] => countsSince(counts, underWay !== null && lastInFile === underWay.save ? underWay.counts : saved);
    this.file.saveNow({ writer: this.writer, save: ++this.saves, added, ifUnreadable: saved, damaged: this.damaged });
  }

  /** This process's own counters by route id. */
  counts(): RouteCounts {
    return { hits: Array.from(this.hits), totalMs: Array.from(this.totalMs) };
  }

  /** The primary of `svc serve --workers`: adds what a worker counted since its previous report. */
  add(delta: RouteCounts): void {
    for (const { id } of this.appRoutes) {
      this.hits[id]! += delta.hits[id] ?? 0;
      this.totalMs[id]! += delta.totalMs[id] ?? 0;
    }
    this.changed = true;
  }

  /**
   * Stops the interval and writes the final counts (the server's shutdown); a retired
   * build hands what it counted since it retired to the counters now live instead.
   */
  close(): Promise<void> {
    clearInterval(this.timer);
    if (this.handedOver !== null) {
      const before = this.handedOver;
      const late = this.stats().map((route, i) => ({ ...route, hits: route.hits - before[i]!.hits, totalMs: route.totalMs - before[i]!.totalMs }));
      live.get(this.file.path)?.absorb(late.filter((route) => route.hits > 0));
      return Promise.resolve();
    }
    if (live.get(this.file.path) === this) live.delete(this.file.path);
    return this.save();
  }

  /** Newer counters for the same file take over this build's counts. */
  async retire(): Promise<Handover> {
    clearInterval(this.timer);
    await this.saving;
    this.handedOver = this.stats();
    return { counts: this.persisted(), saved: this.saved };
  }

  absorb(late: readonly SavedRoute[]): void {
    this.take(late);
    this.changed = true;
  }

  /** Adds `more` to the counters: a build's own routes by id, the others' to the dormant entries. */
  private take(more: readonly SavedRoute[]): void {
    const gone = this.byRoute(more, (id, entry) => {
      this.hits[id]! += entry.hits;
      this.totalMs[id]! += entry.totalMs;
    });
    for (const entry of gone) {
      const at = this.dormant.findIndex((kept) => kept.method === entry.method && kept.path === entry.path);
      if (at < 0) this.dormant.push(entry);
      else this.dormant[at] = { ...entry, hits: this.dormant[at]!.hits + entry.hits, totalMs: this.dormant[at]!.totalMs + entry.totalMs };
    }
  }

  private restore(counts: readonly SavedRoute[], saved: SavedRoute[]): void {
    this.dormant = this.byRoute(counts, (id, entry) => {
      this.hits[id] = entry.hits;
      this.totalMs[id] = entry.totalMs;
    });
    this.saved = saved;
  }

  /** Calls `each` with this build's id of every entry's route; returns the counted entries of routes this build lacks. */
  private byRoute(entries: readonly SavedRoute[], each: (id: number, entry: SavedRoute) => void): SavedRoute[] {
    const byKey = new Map(this.appRoutes.map((route) => [`${route.method} ${route.pattern}`, route.id]));
    const missing: SavedRoute[] = [];
    for (const entry of entries) {
      const id = byKey.get(`${entry.method} ${entry.path}`);
      if (id !== undefined) each(id, entry);
      else if (entry.hits > 0) missing.push({ method: entry.method, path: entry.path, hits: entry.hits, totalMs: entry.totalMs });
    }
    return missing;
  }
}
