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
      const hop = hopAddress(hops[i]!.trim());
      if (hop === '') continue;
      slot = addresses.slot(hop);
      if (!trusted(slot)) return addresses.text(slot);
    }
    // Every hop was a trusted proxy: the request started at the left-most one.
    return addresses.text(slot);
  };
}

/**
 * A hop's address without the port some proxies append (`203.0.113.7:5123`,
 * `[2001:db8::1]:443`) and without an IPv6 zone (`fe80::1%eth0`, `%25eth0` as a URI
 * writes it): the zone names an interface of the proxy's host, not of this one.
 */
function hopAddress(hop: string): string {
  let address = hop;
  if (hop.charCodeAt(0) === 91 /* [ */) {
    const close = hop.indexOf(']');
    if (close >= 0) address = hop.slice(1, close);
  } else {
    const colon = hop.indexOf(':');
    if (colon >= 0 && colon === hop.lastIndexOf(':')) address = hop.slice(0, colon);
  }
  const zone = address.indexOf('%');
  return zone < 0 ? address : address.slice(0, zone);
}
