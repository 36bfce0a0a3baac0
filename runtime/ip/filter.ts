// The IP decision of SPEC §5: the route levels whose key is a segment prefix of the
// path, longest first, then the global level; the first level that decides wins.
import { parseIp, type Family } from './address.ts';
import { RangeSet } from './range-set.ts';
import type { IpLevel, IpTables } from './tables.ts';

/** `true` when `address` may reach `canonicalPath` (see `canonicalPath` in runtime/http). */
export type IpFilter = (address: string, canonicalPath: string) => boolean;

const ALLOW = 1;
const DENY = 2;
const NEXT = 0;

class Level {
  private readonly whitelist: RangeSet;
  private readonly blacklist: RangeSet;

  constructor(level: IpLevel) {
    this.whitelist = new RangeSet(level.whitelist);
    this.blacklist = new RangeSet(level.blacklist);
  }

  get empty(): boolean {
    return this.whitelist.empty && this.blacklist.empty;
  }

  /** Blacklist first, so an address on both lists is denied. */
  decide(family: Family, address: Uint32Array): number {
    if (this.blacklist.has(family, address)) return DENY;
    if (this.whitelist.has(family, address)) return ALLOW;
    return this.whitelist.empty ? NEXT : DENY;
  }
}

const allowAll: IpFilter = () => true;

export function createIpFilter(tables: IpTables): IpFilter {
  const global = new Level(tables.global);
  // `/` covers every path but has no slash to cut at, so it is checked on its own.
  let root: Level | null = null;
  const routes = new Map<string, Level>();
  let longestKey = 0;
  for (const [key, rules] of Object.entries(tables.routes)) {
    const level = new Level(rules);
    if (level.empty) continue;
    if (key === '/') root = level;
    else {
      routes.set(key, level);
      longestKey = Math.max(longestKey, key.length);
    }
  }
  if (global.empty && root === null && routes.size === 0) return allowAll;

  const address = new Uint32Array(4); // reused: the decision is synchronous
  return (text, path) => {
    const family = parseIp(text, address, true);
    if (routes.size > 0) {
      // Candidate keys are the path itself and the path cut before each of its slashes.
      for (let end = path.length; end > 0; end = path.lastIndexOf('/', end - 1)) {
        if (end > longestKey) continue;
        const level = routes.get(end === path.length ? path : path.slice(0, end));
        if (level === undefined) continue;
        const decision = level.decide(family, address);
        if (decision !== NEXT) return decision === ALLOW;
      }
    }
    if (root !== null) {
      const decision = root.decide(family, address);
      if (decision !== NEXT) return decision === ALLOW;
    }
    return global.decide(family, address) !== DENY;
  };
}
