// The IP decision of SPEC §5 written the obvious way — every entry of every level
// checked with ipaddr.js — to hold the compiled tables and the runtime filter to.
import ipaddr from 'ipaddr.js';
import type { SvcConfig } from '../../runtime/config.ts';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const fold = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;

/** ipaddr.js also reads `1.2.3` and `0x0a.0.0.1`; SPEC-style addresses are dotted quads. */
function parseClient(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) return fold(ipaddr.IPv6.parse(text));
  return null;
}

function contains(entry: string, client: Address): boolean {
  const [address, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32];
  const mapped = address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();
  const range: [Address, number] = mapped ? [(address as ipaddr.IPv6).toIPv4Address(), bits - 96] : [address, bits];
  return range[0].kind() === client.kind() && client.match(range as [ipaddr.IPv4, number]);
}

const listed = (list: string[], client: Address | null): boolean => client !== null && list.some((entry) => contains(entry, client));

export function referenceAllows(ip: Omit<SvcConfig['ip'], 'trustProxy'>, clientText: string, path: string): boolean {
  const client = parseClient(clientText);
  const keys = Object.keys(ip.routes)
    .filter((key) => key === '/' || path === key || path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length);
  for (const level of [...keys.map((key) => ip.routes[key]), ip]) {
    if (client === null && level.blacklist.length + level.whitelist.length > 0) return false;
    if (listed(level.blacklist, client)) return false;
    if (listed(level.whitelist, client)) return true;
    if (level.whitelist.length > 0) return false;
  }
  return true;
}
