// svc.json `ip` → `.svc/ip-tables.json` (format: runtime/ip/tables.ts). Every list becomes
// sorted, merged ranges per family, so the runtime decides by binary search however
// long the lists are. The config is validated already (SVC007), so entries parse.
import { formatAddress, parseIpEntry, type IpRange } from '../ip-entry.ts';
import type { IpRules, SvcConfig } from '../../runtime/config.ts';
import type { IpLevel, IpList, IpTables } from '../../runtime/ip/tables.ts';
import { compareText } from '../text-order.ts';

export function emitIpTables(config: SvcConfig): string {
  const { ip } = config;
  // Longest key first, the order in which levels decide; ties by name for stable output.
  const keys = Object.keys(ip.routes).sort((a, b) => b.length - a.length || compareText(a, b));
  const tables: IpTables = {
    global: compileLevel(ip),
    routes: Object.fromEntries(keys.map((key) => [key, compileLevel(ip.routes[key])])),
    trustProxy: compileList(ip.trustProxy),
  };
  return `${JSON.stringify(tables, null, 2)}\n`;
}

const compileLevel = (rules: IpRules): IpLevel => ({
  whitelist: compileList(rules.whitelist),
  blacklist: compileList(rules.blacklist),
});

function compileList(entries: readonly string[]): IpList {
  const ranges = entries.map((entry) => {
    const range = parseIpEntry(entry);
    if (typeof range === 'string') throw new Error(`emitIpTables: ${range} (svc.json should have been validated)`);
    return range;
  });
  return { v4: merge(ranges, 4), v6: merge(ranges, 6) };
}

function merge(ranges: IpRange[], family: 4 | 6): string[] {
  const sorted = ranges.filter((r) => r.family === family).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: Array<{ start: bigint; end: bigint }> = [];
  for (const { start, end } of sorted) {
    const last = merged.at(-1);
    // Overlapping or adjacent (`10.0.0.0/25` + `10.0.0.128/25`) ranges become one.
    if (last && start <= last.end + 1n) {
      if (end > last.end) last.end = end;
    } else {
      merged.push({ start, end });
    }
  }
  return merged.map(({ start, end }) =>
    start === end ? formatAddress(family, start) : `${formatAddress(family, start)}-${formatAddress(family, end)}`,
  );
}
