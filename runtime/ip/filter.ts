// The IP decision of SPEC §5: the route levels whose key is a segment prefix of the
// path, longest first, then the global level; the first level that decides wins.
import { INVALID, type Family } from './address.ts';
import { AddressCache } from './address-cache.ts';
import { RangeSet } from './range-set.ts';
import type { IpLevel, IpTables } from './tables.ts';

/** `true` when `address` may reach `canonicalPath` (see `canonicalPath` in runtime/routing). */
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

  /**
   * Blacklist first, so an address on both lists is denied. An address that does not
   * parse (what a trusted proxy forwarded was not one) passes no level that has a list:
   * otherwise `X-Forwarded-For: bogus` would slip past every blacklist.
   */
  decide(family: Family, address: Uint32Array): number {
    if (family === INVALID) return this.empty ? NEXT : DENY;
    if (this.blacklist.has(family, address)) return DENY;
    if (this.whitelist.has(family, address)) return ALLOW;
    return this.whitelist.empty ? NEXT : DENY;
  }
}

const allowAll: IpFilter = () => true;

/** `ip.routes` keys as a segment trie: a request walks its path once, without slicing it. */
interface KeyNode {
  level: Level | null;
  /** Side by side: `nodes[i]` is the child for `segments[i]`. */
  segments: string[];
  nodes: KeyNode[];
}

function insertKey(root: KeyNode, key: string, level: Level): number {
  const segments = key.split('/').filter(Boolean);
  let node = root;
  for (const segment of segments) {
    let child = node.nodes[node.segments.indexOf(segment)];
    if (!child) {
      node.segments.push(segment);
      node.nodes.push((child = { level: null, segments: [], nodes: [] }));
    }
    node = child;
  }
  node.level = level;
  return segments.length;
}

/** Pass the client address's `addresses` so that an address parsed there is not parsed again here. */
export function createIpFilter(tables: IpTables, addresses: AddressCache = new AddressCache()): IpFilter {
  const global = new Level(tables.global);
  // `/` covers every path; the trie holds the longer keys.
  let root: Level | null = null;
  const keys: KeyNode = { level: null, segments: [], nodes: [] };
  let depth = 0;
  for (const [key, rules] of Object.entries(tables.routes)) {
    const level = new Level(rules);
    if (level.empty) continue;
    if (key === '/') root = level;
    else depth = Math.max(depth, insertKey(keys, key, level));
  }
  if (global.empty && root === null && depth === 0) return allowAll;

  const onPath: Level[] = new Array(depth); // reused: the decision is synchronous
  return (text, path) => {
    // The levels whose key is a segment prefix of the path, shortest first.
    let found = 0;
    let node = keys;
    for (let i = 1; node.segments.length > 0 && i < path.length; ) {
      let next: KeyNode | null = null;
      for (let c = 0; c < node.segments.length; c++) {
        const segment = node.segments[c]!;
        const end = i + segment.length;
        if (path.startsWith(segment, i) && (end === path.length || path.charCodeAt(end) === SLASH)) {
          next = node.nodes[c]!;
          i = end + 1;
          break;
        }
      }
      if (next === null) break;
      if (next.level !== null) onPath[found++] = next.level;
      node = next;
    }
    // Most paths meet no rule when only route keys have lists (the default `/admin`):
    // their address is never looked up.
    if (found === 0 && root === null && global.empty) return true;
    const slot = addresses.slot(text);
    const family = addresses.family(slot);
    const address = addresses.address(slot);
    // Longest key first, then `/`, then the global lists.
    for (let k = found - 1; k >= 0; k--) {
      const decision = onPath[k]!.decide(family, address);
      if (decision !== NEXT) return decision === ALLOW;
    }
    if (root !== null) {
      const decision = root.decide(family, address);
      if (decision !== NEXT) return decision === ALLOW;
    }
    return global.decide(family, address) !== DENY;
  };
}

const SLASH = 47;
