// Per-client request counters for RateLimitKnots: one fixed window per key, opened by
// the key's first request and closed `windowMs` later. Memory stays bounded: the Map is
// kept in the order windows were opened (a reopened window moves to the back), so expired
// windows sit at the front and are dropped in passing; past `maxKeys`, the oldest live
// window is dropped too (that client simply starts a fresh window).

export interface Window {
  /** Requests seen in this window, the current one included. */
  count: number;
  /** When the window closes, in ms since the epoch. */
  readonly resetAt: number;
}

export class FixedWindows {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Counts one request for `key` at `now` and returns its window. */
  hit(key: string, now: number): Window {
    const open = this.windows.get(key);
    if (open !== undefined && this.isOpen(open, now)) {
      open.count++;
      return open;
    }
    if (open !== undefined) this.windows.delete(key);
    this.evict(now);
    const window: Window = { count: 1, resetAt: now + this.windowMs };
    this.windows.set(key, window);
    return window;
  }

  private isOpen(window: Window, now: number): boolean {
    return stillOpen(window.resetAt, now, this.windowMs);
  }

  /** Keys currently tracked. */
  get size(): number {
    return this.windows.size;
  }

  /** Runs only when a window opens, and drops each entry once: O(1) amortised. */
  private evict(now: number): void {
    for (const [key, window] of this.windows) {
      if (this.isOpen(window, now) && this.windows.size < this.maxKeys) return;
      this.windows.delete(key);
    }
  }
}

/**
 * Whether a window of `windowMs` closing at `resetAt` is open at `now`. One that would
 * close more than a whole window from now was opened before the clock was set back (NTP
 * stepping it, a VM resumed): it is closed, or its client would wait out the step too.
 */
export function stillOpen(resetAt: number, now: number, windowMs: number): boolean {
  return resetAt > now && resetAt - now <= windowMs;
}
