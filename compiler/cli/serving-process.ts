// The process `svc tread` serves from (tread-server.mjs), and its replacement. A fresh
// process takes over the address when the current one dies (an exception nothing caught),
// when a build does not finish loading (an endless loop at a module's top level), and
// after many builds, since Node cannot unload a module and every build a process loads
// stays in its memory. It serves the last good build, from a copy kept in .svc/served/:
// by then `.svc/` may hold a newer build that failed to load. A process replaced, or
// stopped with tread, lets go of the address and then finishes its requests in flight; the
// address is a socket tread holds (shared-socket.ts), which a replacement accepts on first.
import { fork, type ChildProcess, type SendHandle } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { frameworkRoot } from '../framework.ts';
import { bindSocket, type SocketHandle } from './shared-socket.ts';

export type Reply = { loaded: true } | { listening: string } | { released: number } | { failed: string; code?: string; name?: string };
type Ask = (message: object, socket?: SocketHandle) => Promise<Reply>;

/** How long a build may take to load before its process is given up on. */
const LOAD_TIMEOUT_MS = 10_000;
/** Builds one process loads before a fresh one takes over (about 1 MB each for the demo). */
const BUILDS_PER_PROCESS = 100;
/** Replacements this close together mean the last good build itself brings the process down. */
const CRASH_WINDOW_MS = 10_000;
const CRASHES_IN_WINDOW = 3;
/** How long a process asked to stop may take to answer, and past its grace period to exit, before it is killed. */
const ANSWER_MS = 1000;

export class ServingProcess {
  private child: ChildProcess;
  private ask: Ask;
  /** The listening socket, bound here and handed to each process. */
  private socket: SocketHandle | null = null;
  /** The build the process serves, as copied to .svc/served/; a replacement loads it again. */
  private loaded: string | null = null;
  private builds = 0;
  private replacing: Promise<void> | null = null;
  private readonly crashes: number[] = [];
  /** The current process and those replaced that still finish their requests, each with its asker. */
  private readonly alive = new Map<ChildProcess, Ask>();
  /** Processes asked to stop: `released` once the address is free, `exited` once they are gone. */
  private readonly retiring = new Map<ChildProcess, { released: Promise<void>; exited: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly root: string,
    /** Called when no process can be kept running: the last good build brings each one down. */
    private readonly onGiveUp: (why: string) => void,
    private readonly buildsPerProcess = BUILDS_PER_PROCESS,
  ) {
    [this.child, this.ask] = this.start();
  }

  /** Loads the bundle at `href`; the process keeps serving its last good build if that fails. */
  async load(href: string): Promise<Reply> {
    await this.replacing;
    const reply = await withTimeout(this.ask({ load: href }), LOAD_TIMEOUT_MS);
    if (reply === null) {
      await this.replace(`the new build did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s (an endless loop at a module's top level?)`);
      return { failed: 'It never finished loading. The server process was replaced.' };
    }
    if ('loaded' in reply) {
      // Without a copy (a full disk), a replacement loads whatever .svc/ holds by then.
      this.loaded = await keepServedBuild(this.root, href).catch(() => href);
      if (++this.builds >= this.buildsPerProcess) await this.replace(null);
    }
    return reply;
  }

  async listen(host: string, port: number): Promise<Reply> {
    const bound = await bindSocket(host, port);
    if ('failed' in bound) return bound;
    const reply = await this.ask({ listen: true }, bound.handle);
    if ('listening' in reply) this.socket = bound.handle;
    else bound.handle.close();
    return reply;
  }

  /** Stops every process once its requests in flight have finished, those being replaced too. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.alive.keys()].map((child) => this.retire(child).exited));
    this.socket?.close();
    this.socket = null;
  }

  private start(): [ChildProcess, Ask] {
    const child = fork(join(frameworkRoot, 'compiler', 'cli', 'tread-server.mjs'), [], { cwd: this.root, execArgv: [], stdio: 'inherit' });
    const ask = asker(child);
    this.alive.set(child, ask);
    child.once('exit', (code, signal) => {
      this.alive.delete(child);
      if (!this.stopped && child === this.child) void this.replace(`the server process exited (${code ?? signal})`);
    });
    return [child, ask];
  }

  /**
   * Asks `child` to stop: it lets go of the address at once and exits once its requests in
   * flight have finished, within its build's grace period. One that does not answer (stuck
   * in an endless loop, it never will, and would hold the port) or overstays is killed.
   */
  private retire(child: ChildProcess): { released: Promise<void>; exited: Promise<void> } {
    let retiring = this.retiring.get(child);
    if (retiring === undefined) {
      const exited = gone(child) ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const released = withTimeout(this.alive.get(child)?.({ release: true }) ?? Promise.resolve(null), ANSWER_MS).then((reply) => {
        if (reply === null || !('released' in reply)) {
          child.kill('SIGKILL');
          return exited;
        }
        const overstayed = setTimeout(() => child.kill('SIGKILL'), reply.released + ANSWER_MS);
        void exited.then(() => clearTimeout(overstayed));
      });
      this.retiring.set(child, (retiring = { released, exited }));
      void exited.then(() => this.retiring.delete(child));
    }
    return retiring;
  }

  /**
   * A fresh process in place of the current one: it loads the build that was served while
   * the old one still serves, and accepts on the listening socket before the old one lets go.
   */
  private replace(why: string | null): Promise<void> {
    this.replacing ??= (async () => {
      const old = this.child;
      if (why !== null && this.crashedTooOften()) {
        await this.retire(old).exited;
        return this.onGiveUp(`${why}, ${CRASHES_IN_WINDOW} times within ${CRASH_WINDOW_MS / 1000} s`);
      }
      if (why !== null) console.error(`svc tread: ${why}; a new server process takes over.`);
      [this.child, this.ask] = this.start();
      this.builds = 0;
      if (this.loaded !== null) await this.ask({ load: this.loaded });
      if (this.socket !== null) await this.ask({ listen: true }, this.socket);
      // It finishes its requests in flight meanwhile.
      await this.retire(old).released;
    })().finally(() => (this.replacing = null));
    return this.replacing;
  }

  private crashedTooOften(): boolean {
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes[0]! < now - CRASH_WINDOW_MS) this.crashes.shift();
    return this.crashes.length >= CRASHES_IN_WINDOW;
  }
}

/** What a bundle reads from beside itself (runtime/server/build-output.ts). tread writes no source map. */
const BUILD_FILES = ['app.mjs', 'manifest.json', 'ip-tables.json'];

/** Copies the build just loaded (`href`: .svc/app.mjs?v=N) to .svc/served/; the copy's URL. */
async function keepServedBuild(root: string, href: string): Promise<string> {
  const build = join(root, '.svc');
  const served = join(build, 'served');
  await mkdir(served, { recursive: true });
  await Promise.all(BUILD_FILES.map((name) => copyFile(join(build, name), join(served, name))));
  const copy = pathToFileURL(join(served, 'app.mjs'));
  copy.search = new URL(href).search;
  return copy.href;
}

/** Resolves with `promise`'s value, or null once `ms` have passed. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const gone = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/**
 * Requests to a process, one at a time: each is sent once the previous one has its
 * reply, so replies cannot cross. A process that exits answers what it was asked with
 * a failure.
 */
function asker(child: ChildProcess): Ask {
  let previous: Promise<unknown> = Promise.resolve();
  return (message, socket) => {
    const reply = previous.then(
      () =>
        new Promise<Reply>((resolve) => {
          const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
            child.off('message', answered);
            resolve({ failed: `The server process exited (${code ?? signal}).` });
          };
          const answered = (answer: unknown): void => {
            child.off('exit', exited);
            resolve(answer as Reply);
          };
          if (gone(child)) return exited(child.exitCode, child.signalCode);
          child.once('message', answered).once('exit', exited);
          child.send(message, socket as SendHandle);
        }),
    );
    previous = reply;
    return reply;
  };
}
