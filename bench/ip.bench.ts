// `npm run bench:ip`: the cost of one IP decision (parse the client address, find the
// levels for the path, binary-search each list) with 0, 10 and 10,000 CIDR entries, for
// IPv4 and IPv6 clients. The tables come from the real validator and emitter.
// Target: under 100 ns per decision at 10,000 entries, within 2× of the 10-entry cost.
import { bench, do_not_optimize, group, run, summary } from 'mitata';
import { parseConfig } from '../compiler/config/index.ts';
import { emitIpTables } from '../compiler/emit/ip-tables.ts';
import { createIpFilter, type IpFilter, type IpTables } from '../runtime/ip/index.ts';

// A fixed xorshift stream, so every run measures the same rules and addresses.
let seed = 0x9e3779b9;
const next = (): number => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};

const v4 = (): string => [next() >>> 24, next() >>> 24, next() >>> 24, next() >>> 24].join('.');
const v6 = (): string => Array.from({ length: 8 }, () => (next() >>> 16).toString(16)).join(':');

/** `count` random ranges: IPv4 /16–/32, IPv6 /32–/128. */
const cidrs = (family: 4 | 6, count: number): string[] =>
  Array.from({ length: count }, () => (family === 4 ? `${v4()}/${16 + (next() % 17)}` : `${v6()}/${32 + (next() % 97)}`));

function filterFor(ip: unknown): IpFilter {
  const { config, diagnostics } = parseConfig(JSON.stringify({ ip }));
  if (!config || diagnostics.some((d) => d.severity === 'error')) throw new Error('bench rules do not validate');
  return createIpFilter(JSON.parse(emitIpTables(config)) as IpTables);
}

const ADDRESSES = 1024; // a power of two: the index wraps with a mask
const PATH = '/api/users/42';

for (const family of [4, 6] as const) {
  const clients = Array.from({ length: ADDRESSES }, family === 4 ? v4 : v6);
  group(`IPv${family} client, ${PATH}`, () => {
    summary(() => {
      for (const count of [0, 10, 10_000]) {
        const allowed = filterFor({ blacklist: cidrs(family, count) });
        let i = 0;
        bench(`global blacklist, ${count} entries`, () => do_not_optimize(allowed(clients[(i = (i + 1) & (ADDRESSES - 1))], PATH)));
      }
      // Three levels on the way: /api/users, /api, then the global lists.
      const half = cidrs(family, 10_000);
      const layered = filterFor({
        whitelist: half.slice(0, 5_000),
        routes: { '/api': { blacklist: half.slice(5_000) }, '/api/users': { blacklist: cidrs(family, 10) }, '/admin': { whitelist: ['127.0.0.1'] } },
      });
      let j = 0;
      bench('3 levels, 10,010 entries', () => do_not_optimize(layered(clients[(j = (j + 1) & (ADDRESSES - 1))], PATH)));
    });
  });
}

await run();
