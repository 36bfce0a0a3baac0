// The ranges of the built-in knots' parameters, which TypeScript's types cannot state
// (a limit of at least 1). Their constructors check them at start-up; `svc build` checks
// the literal parameters a route file gives them (SVC008), so a bad one never gets that far.
import type { RateLimitOptions } from './rate-limit.ts';
import type { ShoeCacheOptions } from './shoe-cache.ts';

/**
 * The window's bounds: the clock counts whole milliseconds, and `Retry-After` is written
 * in digits, which a billion seconds (31 years) still is and 1e21 no longer.
 */
const SHORTEST_WINDOW = 0.001;
const LONGEST_WINDOW = 1e9;

export function rateLimitProblem(limit: number, windowSeconds: number, maxClients: number): string | null {
  if (!Number.isSafeInteger(limit) || limit < 1) return `RateLimitKnots: limit must be a whole number of requests, at least 1; got ${limit}`;
  if (!(windowSeconds >= SHORTEST_WINDOW && windowSeconds <= LONGEST_WINDOW)) {
    return `RateLimitKnots: windowSeconds must be from ${SHORTEST_WINDOW} (a millisecond) to ${LONGEST_WINDOW}; got ${windowSeconds}`;
  }
  if (!Number.isSafeInteger(maxClients) || maxClients < 1) return `RateLimitKnots: maxClients must be a whole number, at least 1; got ${maxClients}`;
  return null;
}

export function shoeCacheProblem(ttlSeconds: number | null | undefined, maxEntries: number): string | null {
  if (ttlSeconds !== undefined && ttlSeconds !== null && !(Number.isFinite(ttlSeconds) && ttlSeconds >= 0)) return `ShoeCacheKnots: ttlSeconds must be a number of seconds, 0 or more; got ${ttlSeconds}`;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) return `ShoeCacheKnots: maxEntries must be a whole number, at least 1; got ${maxEntries}`;
  return null;
}

/** By class name, for parameters whose types already fit the constructor. */
export const BUILT_IN_PARAMETER_CHECKS: Readonly<Record<string, (args: readonly unknown[]) => string | null>> = {
  RateLimitKnots: ([limit = 60, windowSeconds = 60, options = {}]) =>
    rateLimitProblem(limit as number, windowSeconds as number, (options as RateLimitOptions).maxClients ?? 10_000),
  ShoeCacheKnots: ([ttlSeconds, options = {}]) => shoeCacheProblem(ttlSeconds as number | null | undefined, (options as ShoeCacheOptions).maxEntries ?? 10_000),
};
