// RateLimitKnots(limit = 60, windowSeconds = 60) (SPEC §9): at most `limit` requests per
// client address (`ctx.ip`, so after the trustProxy rule) per fixed window. Each
// middleware entry is its own instance with its own counters; the routes of a group
// share their entry's instance. Under `svc serve --workers` the primary keeps the
// counters (cluster-windows.ts), so the limit holds for the whole server.
import type { Context } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import type { Next, Outgoing } from '../http/outgoing.ts';
import { inSvcWorker } from '../shoebox/cluster-link.ts';
import { PrimaryWindows } from './cluster-windows.ts';
import { FixedWindows, type Window } from './fixed-windows.ts';
import type { Middleware } from './middleware.ts';
import { rateLimitProblem } from './parameter-checks.ts';

export interface RateLimitOptions {
  /**
   * Most client addresses tracked at once (default 10,000). Expired windows are dropped
   * first; beyond the cap the oldest window goes, so memory stays bounded under a flood
   * of distinct addresses.
   */
  maxClients?: number;
}

/** Instances in the order they were made: the same limiter gets the same number in every worker. */
let made = 0;

export class RateLimitKnots implements Middleware {
  private readonly windows: FixedWindows;
  /** In a worker of `svc serve --workers`; `windows` then only stands in when the primary cannot be reached. */
  private readonly shared: PrimaryWindows | null;
  private readonly limitHeader: string;

  /** `options` is a third, optional entry parameter: `[RateLimitKnots, [100, 60, { maxClients: 50000 }]]`. */
  constructor(
    readonly limit: number = 60,
    readonly windowSeconds: number = 60,
    options: RateLimitOptions = {},
  ) {
    const { maxClients = 10_000 } = options;
    const problem = rateLimitProblem(limit, windowSeconds, maxClients);
    if (problem !== null) throw new RangeError(problem);
    this.windows = new FixedWindows(windowSeconds * 1000, maxClients);
    this.shared = inSvcWorker() ? new PrimaryWindows(`${made}:${limit}/${windowSeconds}`, limit, windowSeconds * 1000, maxClients) : null;
    made++;
    this.limitHeader = String(limit);
  }

  /** The clock, in ms since the epoch. Tests override it in a subclass to move time without sleeping. */
  protected now(): number {
    return Date.now();
  }

  /**
   * Who is counted: the client address. A subclass may count otherwise, by an IPv6
   * address's /64, which one client usually holds whole, or by an API key.
   */
  protected clientKey(ctx: Context): string {
    return ctx.ip;
  }

  handle(ctx: Context, next: Next): Promise<Outgoing> {
    const now = this.now();
    const client = this.clientKey(ctx);
    if (this.shared === null) return this.answer(this.windows.hit(client, now), now, next);
    return this.shared.hit(client, now).then(
      (window) => this.answer(window, now, next),
      () => this.answer(this.windows.hit(client, now), now, next),
    );
  }

  private answer(window: Window, now: number, next: Next): Promise<Outgoing> {
    const remaining = this.limit - window.count;
    if (remaining < 0) throw this.tooMany(window.resetAt, now);
    return next().then((out) => {
      // Nested limits (a group's, and a stricter one inside it): the one closer to refusing
      // speaks, so an inner 429 is not relabelled "limit 100, 97 remaining" on its way out.
      if (!(Number(out.headers['x-ratelimit-remaining']) <= remaining)) {
        out.headers['x-ratelimit-limit'] = this.limitHeader;
        out.headers['x-ratelimit-remaining'] = String(remaining);
      }
      return out;
    });
  }

  /** 429, rendered like every error response (problem+json or the HTML page). */
  private tooMany(resetAt: number, now: number): HttpError {
    const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
    return new HttpError(429, `Too many requests: at most ${this.limit} per ${this.windowSeconds} s. Try again in ${retryAfter} s.`, {
      'x-ratelimit-limit': this.limitHeader,
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
      'retry-after': String(retryAfter),
    });
  }
}
