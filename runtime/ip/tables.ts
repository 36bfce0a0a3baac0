// `.svc/ip-tables.json`: the IP rules of svc.json, compiled by compiler/emit/ip-tables.ts.
// Every list is already reduced to sorted, merged, non-overlapping ranges (CIDRs
// expanded, IPv4-mapped IPv6 folded to IPv4), so the runtime only binary-searches.

/** Ranges as `"start-end"`, or `"address"` for a single one, ascending and disjoint. */
export interface IpList {
  v4: string[];
  v6: string[];
}

export interface IpLevel {
  whitelist: IpList;
  blacklist: IpList;
}

export interface IpTables {
  global: IpLevel;
  /** Per-route levels keyed by canonical path (`/admin`), longest key first. */
  routes: Record<string, IpLevel>;
  /** Proxies whose `X-Forwarded-For` is believed. */
  trustProxy: IpList;
}
