// A middleware ("knot") is a class: constructed once at start-up with the parameters of
// its `[Class, [params…]]` entry, then `handle` runs for every request on its routes.
import type { Context } from '../context.ts';
import type { Next, Outgoing } from '../http/outgoing.ts';

export interface Middleware {
  /** Call `next()` to run the rest of the chain, or return a response to short-circuit. */
  handle(ctx: Context, next: Next): Outgoing | Promise<Outgoing>;
}

export type MiddlewareClass = new (...params: any[]) => Middleware;
