// A middleware ("knot") is a class: constructed once at start-up with the parameters of
// its `[Class, [params…]]` entry, then `handle` runs for every request on its routes.
import type { SvcConfig } from '../config.ts';
import type { Context } from '../context.ts';
import type { Next, Outgoing } from '../http/outgoing.ts';

/** What the application being served tells its knots once, at start-up. */
export interface KnotSetup {
  /** The project root: shoebox/ lives here. */
  readonly root: string;
  /** svc.json with every default filled in. */
  readonly config: SvcConfig;
  /** Served by `svc tread`. */
  readonly dev: boolean;
}

export interface Middleware {
  /**
   * Return `next()` (or what it resolves to, changed) to run the rest of the chain, or
   * return a response without calling it to short-circuit; `throw new HttpError(…)` /
   * `abort(…)` answers with that error. `next()` always resolves: an error further in
   * (inner middleware or the handler) arrives as its error response, so outer middleware
   * can still decorate it.
   */
  handle(ctx: Context, next: Next): Outgoing | Promise<Outgoing>;
  /**
   * Optional: runs once at start-up, after the constructor and before the first request
   * (e.g. to read svc.json or prepare a shoebox/ folder). Start-up fails if it throws.
   */
  start?(setup: KnotSetup): void | Promise<void>;
}

export type MiddlewareClass = new (...params: any[]) => Middleware;
