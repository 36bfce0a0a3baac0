// RateLimitKnots under `svc serve --workers N`: a client's connections land on any worker,
// so counting in each worker would let N × limit requests through per window. The
// primary keeps the windows instead; a worker asks it to count each request and waits
// for the window it landed in. The requests of one turn of the event loop travel as one
// message each way, so a busy worker pays one round trip per turn, not per request.
import { fromPrimary, toPrimary, type RateHit, type RateWindow } from '../shoebox/cluster-link.ts';
import { FixedWindows, stillOpen, type Window } from './fixed-windows.ts';

interface Waiting {
  resolve(window: Window): void;
  reject(error: unknown): void;
}

const waiting = new Map<number, Waiting>();
let queued: RateHit[] = [];
let nextId = 0;
let listening = false;

/** Worker side: one limiter's windows, kept by the primary. */
export class PrimaryWindows {
  /**
   * Clients the primary found over the limit, until their window closes: counts only grow
   * within a window, so their requests are refused here without asking again, and a flood
   * from one client costs the primary nothing.
   */
  private readonly spent = new Map<string, number>();

  constructor(
    /** The same for the same limiter in every worker: they all bind the same build in the same order. */
    private readonly limiter: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {
    if (!listening) {
      listening = true;
      fromPrimary('rate-windows', ({ windows }) => {
        for (const { id, count, resetAt } of windows) {
          waiting.get(id)?.resolve({ count, resetAt });
          waiting.delete(id);
        }
      });
      // The primary is gone: nobody will answer what is still waiting.
      process.once('disconnect', () => fail([...waiting.keys()], new Error('the primary closed the channel')));
    }
  }

  /** Rejects when the primary cannot be reached (the worker is being cut off): the caller counts alone. */
  hit(key: string, now: number): Promise<Window> {
    const closes = this.spent.get(key);
    if (closes !== undefined) {
      if (stillOpen(closes, now, this.windowMs)) return Promise.resolve({ count: this.limit + 1, resetAt: closes });
      this.spent.delete(key);
    }
    if (!process.connected) return Promise.reject(new Error('no channel to the primary'));
    const { limiter, windowMs, maxKeys } = this;
    const id = nextId++;
    const counted = new Promise<Window>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      if (queued.push({ id, limiter, key, now, windowMs, maxKeys }) === 1) setImmediate(send);
    });
    return counted.then((window) => {
      if (window.count > this.limit) {
        if (this.spent.size >= this.maxKeys) this.spent.clear(); // bounded; only a shortcut
        this.spent.set(key, window.resetAt);
      }
      return window;
    });
  }
}

function send(): void {
  const hits = queued;
  queued = [];
  toPrimary({ svc: 'rate-hits', hits }).catch((error: unknown) => fail(hits.map((hit) => hit.id), error));
}

function fail(ids: readonly number[], error: unknown): void {
  for (const id of ids) {
    waiting.get(id)?.reject(error);
    waiting.delete(id);
  }
}

/** Primary side: every limiter's windows, for all workers. */
export class RateHub {
  private readonly limiters = new Map<string, FixedWindows>();

  count(hits: readonly RateHit[]): RateWindow[] {
    return hits.map(({ id, limiter, key, now, windowMs, maxKeys }) => {
      let windows = this.limiters.get(limiter);
      if (windows === undefined) this.limiters.set(limiter, (windows = new FixedWindows(windowMs, maxKeys)));
      const { count, resetAt } = windows.hit(key, now);
      return { id, count, resetAt };
    });
  }
}
