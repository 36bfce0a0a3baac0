// What `svc tread` watches: routes/, weave/, svc.json and tsconfig.json, where route
// files, controllers, middleware and error pages appear without anything importing them
// yet; and every other file of the project the last build read (a route file's
// `../handlers/show.ts`, a `lib/` it reaches), wherever it is.
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export class SourceWatcher {
  /** Files outside the fixed places that the last build read, and the folders on the way to them. */
  private inputs = new Set<string>();
  private folders = new Set<string>();
  /** Paths a watcher was given since they were last deleted: it watches them, and what `ignored` lets in below them. */
  private readonly added = new Set<string>();
  /** The root's, then one for each build that read files not watched yet. */
  private readonly watchers: FSWatcher[] = [];
  /** Files to look at again once chokidar reports their changes again (lookAgain). */
  private readonly looks = new Map<string, NodeJS.Timeout>();
  /** Date.now() when the latest build began reading the sources. */
  private buildStarted = -Infinity;
  /** Every file the builds since the last good one read, and how the last sweep found it. */
  private read = new Map<string, string | null>();
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;

  private constructor(
    private readonly root: string,
    private readonly changed: () => void,
  ) {}

  /** Calls `changed` on each event that can change a build, from when the promise resolves. */
  static async start(root: string, changed: () => void): Promise<SourceWatcher> {
    // As BuildResult.inputs names files, so that walking up from one reaches the root.
    const self = new SourceWatcher(resolve(root), changed);
    // The root, filtered, rather than the folders themselves: a `weave/` made after
    // start-up is watched too, and node_modules and the like are never walked.
    await self.watch([self.root]);
    self.sweeper = setInterval(() => void self.sweep(), SWEEP_MS).unref();
    return self;
  }

  /**
   * Watches the files a build that started at `since` (Date.now()) read
   * (BuildResult.inputs). A failed build read only part of what the last good one did:
   * those are kept, so that the edit fixing one is built too.
   */
  async follow(inputs: readonly string[], ok: boolean, since: number): Promise<void> {
    const reading = new Set(inputs);
    if (ok) for (const path of this.read.keys()) if (!reading.has(path)) this.read.delete(path);
    for (const path of inputs) if (!this.read.has(path)) this.read.set(path, null);
    const files = inputs.filter((path) => !fixed(this.root, path));
    this.inputs = new Set(ok ? files : [...this.inputs, ...files]);
    this.folders = new Set();
    for (const file of this.inputs) {
      for (let folder = dirname(file); folder !== this.root && !this.folders.has(folder); folder = dirname(folder)) this.folders.add(folder);
    }
    const fresh = [...this.folders, ...this.inputs].filter((path) => !this.added.has(path));
    if (fresh.length === 0) return;
    const gone = await Promise.all(fresh.map((path) => stat(path).then(() => false, () => true)));
    for (const path of fresh) this.added.add(path);
    // The topmost only: chokidar walks down from each through what `ignored` lets in. And
    // not a file gone from a folder that is watched (a failed build keeps what the last
    // good one read): that folder's watcher finds it when it returns, and a watcher of its
    // own would report each of its changes once more.
    const adding = new Set(fresh);
    const topmost = fresh.filter((path, i) => !adding.has(dirname(path)) && !(gone[i] && this.added.has(dirname(path))));
    if (topmost.length > 0) await this.watch(topmost);
    // Saved after the build read it and before it was watched (a save just as the new
    // build is served): no event will tell.
    const stamps = await Promise.all(fresh.map((path) => stat(path).catch(() => null)));
    if (stamps.some((stamp) => stamp?.isFile() && stamp.ctimeMs > since)) this.changed();
  }

  /** Says a build begins reading the sources now; returns the time, as `follow` takes it. */
  building(): number {
    return (this.buildStarted = Date.now());
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const look of this.looks.values()) clearTimeout(look);
    await Promise.all(this.watchers.map((watcher) => watcher.close()));
  }

  /** Resolves once `paths` are watched. */
  private async watch(paths: string[]): Promise<void> {
    // Events as they come (no `atomic` hold-back of 100 ms on a deletion): a file renamed away
    // and another written, or a folder moved, then land in one burst, so one build.
    const watcher = watch(paths, { ignoreInitial: true, atomic: false, ignored: (path) => !fixed(this.root, path) && !this.admits(path) });
    this.watchers.push(watcher);
    watcher.on('all', (event, path) => {
      // chokidar forgets what was deleted: a folder moved away and back is to be watched again.
      if (event === 'unlink' || event === 'unlinkDir') this.added.delete(path);
      // Unless a watcher of its folder found it back, and watches it again: one more watcher
      // for it would report each of its changes twice, and so on at every return.
      if (event === 'add' || event === 'addDir') this.added.add(path);
      if (!readByBuild(path) || !(fixed(this.root, path) || this.inputs.has(path))) return;
      this.changed();
      if (event === 'add' || event === 'change') this.lookAgain(path);
    });
    await new Promise<void>((resolve) => watcher.once('ready', resolve));
  }

  /**
   * chokidar drops every 'change' of a file for 50 ms after it reports one, and says
   * nothing when that time is up: a second save that soon after the first (a formatter
   * run on save, an editor writing twice) would go unbuilt if the build the first started
   * had already read the file. Looked at again once that time is up, a file changed since
   * the latest build began is built.
   */
  private lookAgain(path: string): void {
    clearTimeout(this.looks.get(path));
    const look = async (): Promise<void> => {
      this.looks.delete(path);
      const stamp = await stat(path).catch(() => null);
      if (stamp !== null && stamp.ctimeMs > this.buildStarted) this.changed();
    };
    this.looks.set(path, setTimeout(() => void look(), DROPPED_CHANGES_MS));
  }

  /**
   * chokidar can also lose a file for good: one that replaces a folder of its name at once
   * (its folder watch is gone, and the listing still names it). Every file the builds read,
   * and every route file, is looked at once a second; one changed since the last look and
   * since the latest build began is built.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    const started = this.buildStarted;
    // And the route files there are: one that was a folder was never read.
    const listed = await readdir(join(this.root, 'routes')).catch(() => []);
    for (const name of listed) if (name.endsWith('.ts') && !this.read.has(join(this.root, 'routes', name))) this.read.set(join(this.root, 'routes', name), null);
    const paths = [...this.read.keys()];
    const stamps = await Promise.all(paths.map((path) => stat(path).catch(() => null)));
    this.sweeping = false;
    let missed = false;
    paths.forEach((path, i) => {
      const found = stamps[i];
      const stamp = found ? `${found.ino}:${found.ctimeMs}:${found.size}` : null;
      if (found && stamp !== this.read.get(path) && found.ctimeMs > started) missed = true;
      if (this.read.has(path)) this.read.set(path, stamp);
    });
    if (missed) this.changed();
  }

  private admits(path: string): boolean {
    return this.inputs.has(path) || this.folders.has(path);
  }
}

/** How often every file the builds read is looked at (sweep). */
const SWEEP_MS = 1000;

/** chokidar's hold on repeated 'change' events of one file (FSWatcher._emit), and a margin. */
const DROPPED_CHANGES_MS = 60;

/** tsconfig.json: its `paths` decide what aliased imports name. */
const fixed = (root: string, path: string): boolean => /^(|routes|weave)(\/|$)|^(svc|tsconfig)\.json$/.test(relative(root, path).split(sep).join('/'));

/**
 * Files a build can read: svc.json, code and data a route file can import, error pages.
 * An editor's temporary files (`sed -i`'s `sedX1b2c3`, vim's `4913` and `web.ts~`) are
 * not: the one later renamed over a route file would otherwise start a build of its own
 * as it is written, before the save is done. Folders come and go with the files in them.
 */
const readByBuild = (path: string): boolean => /\.([cm]?[jt]sx?|json|hbs)$/.test(path);
