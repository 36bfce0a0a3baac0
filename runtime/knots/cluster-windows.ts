// RateLimitKnots under `svc serve --workers N`: a client's connections land on any worker,
// so counting in each worker would let N × limit requests through per window. The
// primary keeps the windows instead; a worker asks it to count each request and waits
// for the window it landed in. The requests of one turn of the event loop travel as one
// message each way, so a busy worker pays one round trip per turn, not per request.
import { fromPrimary, toPrimary, type RateHit, type RateWindow } from '../shoebox/cluster-link.ts';
import { FixedWindows, type Window } from './fixed-windows.ts';

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
  constructor(
    /** The same for the same limiter in every worker: they all bind the same build in the same order. */
    private readonly limiter: string,
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
    if (!process.connected) return Promise.reject(new Error('no channel to the primary'));
    const { limiter, windowMs, maxKeys } = this;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      if (queued.push({ id, limiter, key, now, windowMs, maxKeys }) === 1) setImmediate(send);
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
