// Who is asking: the socket peer, or — only when that peer is a proxy listed in
// `ip.trustProxy` — the right-most `X-Forwarded-For` hop that is not itself trusted.
// Everything left of that hop was written by the client and proves nothing.
import type { IncomingMessage } from 'node:http';
import { AddressCache } from './address-cache.ts';
import { RangeSet } from './range-set.ts';
import type { IpTables } from './tables.ts';

/**
 * The client address, with IPv4-mapped IPv6 folded to IPv4 (`::ffff:10.0.0.5` →
 * `10.0.0.5`) and a forwarded IPv6 address in canonical form (`0:0:0:0:0:0:0:1` → `::1`).
 */
export type ClientAddress = (req: IncomingMessage) => string;

/** Pass the IP filter's `addresses` so that an address parsed here is not parsed again there. */
export function createClientAddress(tables: IpTables, addresses: AddressCache = new AddressCache()): ClientAddress {
  const proxies = new RangeSet(tables.trustProxy);
  // Node writes the peer's address in canonical form already: it is not written again.
  const peer = (req: IncomingMessage): number => addresses.slot(req.socket.remoteAddress ?? '', true);
  if (proxies.empty) return (req) => addresses.text(peer(req));
  const trusted = (slot: number): boolean => proxies.has(addresses.family(slot), addresses.address(slot));
  return (req) => {
    let slot = peer(req);
    const forwarded = req.headers['x-forwarded-for'];
    if (forwarded === undefined || !trusted(slot)) return addresses.text(slot);
    // Node joins repeated X-Forwarded-For headers with ", ", so one split sees every hop.
    const hops = (typeof forwarded === 'string' ? forwarded : forwarded.join(',')).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = withoutPort(hops[i]!.trim());
      if (hop === '') continue;
      slot = addresses.slot(hop);
      if (!trusted(slot)) return addresses.text(slot);
    }
    // Every hop was a trusted proxy: the request started at the left-most one.
    return addresses.text(slot);
  };
}

/** Some proxies append the port: `203.0.113.7:5123`, `[2001:db8::1]:443`. */
function withoutPort(hop: string): string {
  if (hop.charCodeAt(0) === 91 /* [ */) {
    const close = hop.indexOf(']');
    return close < 0 ? hop : hop.slice(1, close);
  }
  const colon = hop.indexOf(':');
  return colon >= 0 && colon === hop.lastIndexOf(':') ? hop.slice(0, colon) : hop;
}
