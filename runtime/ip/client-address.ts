// Who is asking: the socket peer, or — only when that peer is a proxy listed in
// `ip.trustProxy` — the right-most `X-Forwarded-For` hop that is not itself trusted.
// Everything left of that hop was written by the client and proves nothing.
import type { IncomingMessage } from 'node:http';
import { foldMapped, parseIp } from './address.ts';
import { RangeSet } from './range-set.ts';
import type { IpTables } from './tables.ts';

/** Whether an address belongs to a trusted proxy; build it once with `createProxyTrust`. */
export type ProxyTrust = (address: string) => boolean;

const trustNobody: ProxyTrust = () => false;

export function createProxyTrust(tables: IpTables): ProxyTrust {
  const proxies = new RangeSet(tables.trustProxy);
  if (proxies.empty) return trustNobody;
  const address = new Uint32Array(4);
  return (text) => proxies.has(parseIp(text, address, true), address);
}

/** The client address, with IPv4-mapped IPv6 folded to IPv4 (`::ffff:10.0.0.5` → `10.0.0.5`). */
export function clientAddress(req: IncomingMessage, trustProxy: ProxyTrust): string {
  const peer = foldMapped(req.socket.remoteAddress ?? '');
  const forwarded = req.headers['x-forwarded-for'];
  if (forwarded === undefined || !trustProxy(peer)) return peer;
  // Node joins repeated X-Forwarded-For headers with ", ", so one split sees every hop.
  const hops = (typeof forwarded === 'string' ? forwarded : forwarded.join(',')).split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = withoutPort(hops[i].trim());
    if (hop === '') continue;
    client = foldMapped(hop);
    if (!trustProxy(client)) return client;
  }
  // Every hop was a trusted proxy: the request started at the left-most one.
  return client;
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
