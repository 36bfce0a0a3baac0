// Arithmetic on saved counts, matched by method and pattern: the route ids of one build
// mean nothing to another build, nor to another process's.
import type { SavedRoute } from './metrics-file.ts';

const keyOf = (route: { method: string; path: string }): string => `${route.method} ${route.path}`;

/** `base` with `added` added route by route; routes only `added` has come last. */
export function countsAdded(base: readonly SavedRoute[], added: readonly SavedRoute[]): SavedRoute[] {
  const sums = new Map(base.map((route) => [keyOf(route), { ...route }]));
  for (const route of added) {
    const sum = sums.get(keyOf(route));
    if (sum === undefined) sums.set(keyOf(route), { ...route });
    else {
      sum.hits += route.hits;
      sum.totalMs += route.totalMs;
    }
  }
  return [...sums.values()];
}

/**
 * What `later` counted beyond `earlier`, route by route (every route of `later`, so that
 * a file lists each route a build has). A route with the same hits in both counted
 * nothing more: its durations, summed in another order, may differ in the last bits of
 * a float, and that difference is noise.
 */
export function countsSince(later: readonly SavedRoute[], earlier: readonly SavedRoute[]): SavedRoute[] {
  const before = new Map(earlier.map((route) => [keyOf(route), route]));
  return later.map(({ method, path, hits, totalMs }) => {
    const then = before.get(keyOf({ method, path }));
    const more = hits - (then?.hits ?? 0);
    return { method, path, hits: more, totalMs: more === 0 ? 0 : totalMs - (then?.totalMs ?? 0) };
  });
}
