// One svc.json IP entry (`10.0.0.5`, `10.0.0.0/24`, `2001:db8::/32`, `::ffff:10.0.0.0/104`)
// → the range it covers. The build-time counterpart of runtime/ip/address.ts, which it
// uses so that config and requests parse addresses identically.
import { IPV4, IPV6, parseIp } from '../runtime/ip/address.ts';
import { dotted, ipv6Text } from '../runtime/ip/address-text.ts';

export interface IpRange {
  family: 4 | 6;
  start: bigint;
  end: bigint;
  /** `10.0.0.5/24`: bits set below the prefix, ignored (the range is 10.0.0.0/24). */
  hostBits: boolean;
}

const MAPPED_PREFIX = 96; // ::ffff:0:0/96 is IPv4 space

/** The range, or a message saying what is wrong with the entry. */
export function parseIpEntry(entry: string): IpRange | string {
  const slash = entry.indexOf('/');
  const text = slash < 0 ? entry : entry.slice(0, slash);
  const words = new Uint32Array(4);
  const family = parseIp(text, words);
  if (family !== IPV4 && family !== IPV6) {
    if (slash < 0) return notAnAddress(text);
    return text === '' ? `"${entry}": an address must come before the prefix length` : `"${entry}": ${notAnAddress(text)}`;
  }
  const v6Text = text.includes(':');
  // A mapped IPv6 entry comes back as IPv4; its prefix counts the 96 bits in front.
  const bits = family === IPV4 ? 32 : 128;
  let prefix = bits;
  if (slash >= 0) {
    const digits = entry.slice(slash + 1);
    const max = v6Text ? 128 : 32;
    if (!/^(0|[1-9][0-9]{0,2})$/.test(digits) || Number(digits) > max) {
      return `"${entry}": the prefix length must be a whole number from 0 to ${max}`;
    }
    prefix = Number(digits);
    if (v6Text && family === IPV4) {
      if (prefix < MAPPED_PREFIX) return `"${entry}": an IPv4-mapped range needs a prefix length of at least 96; write it as an IPv4 range`;
      prefix -= MAPPED_PREFIX;
    }
  }
  const value = family === IPV4 ? BigInt(words[0]) : toBigInt(words);
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  const start = value & ~hostMask;
  return { family, start, end: start | hostMask, hostBits: (value & hostMask) !== 0n };
}

/** Why `text` is refused, naming the two refusals that look like addresses: a zone and a leading zero. */
function notAnAddress(text: string): string {
  const zone = text.indexOf('%');
  if (zone > 0 && parseIp(text, new Uint32Array(4), true) === IPV6) {
    return `"${text}" is not an IPv4 or IPv6 address: its zone ${text.slice(zone)} names a network interface of one host; write the address without it`;
  }
  if (/^[0-9]+(\.[0-9]+){3}$/.test(text) && text.split('.').some((part) => /^0[0-9]/.test(part))) {
    return `"${text}" is not an IPv4 or IPv6 address: a part with a leading zero is refused, as some tools read it as octal; write each part in decimal without leading zeros`;
  }
  return `"${text}" is not an IPv4 or IPv6 address`;
}

function toBigInt(words: Uint32Array): bigint {
  return (BigInt(words[0]) << 96n) | (BigInt(words[1]) << 64n) | (BigInt(words[2]) << 32n) | BigInt(words[3]);
}

export function formatAddress(family: 4 | 6, value: bigint): string {
  if (family === 4) return dotted(Number(value));
  return ipv6Text([96n, 64n, 32n, 0n].map((shift) => Number((value >> shift) & 0xffffffffn)));
}
