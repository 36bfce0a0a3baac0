// A hand-written IP address parser for the request path: no RegExp, no allocation.
// The result goes into a caller-owned Uint32Array: an IPv4 address as out[0], an IPv6
// address as four big-endian 32-bit words out[0..3]. IPv4-mapped IPv6 (`::ffff:a.b.c.d`)
// comes back as IPv4, because SPEC §5 treats such clients as their IPv4 form.

export const INVALID = 0;
export const IPV4 = 4;
export const IPV6 = 6;
export type Family = typeof INVALID | typeof IPV4 | typeof IPV6;

const DOT = 46;
const COLON = 58;

const groups = new Uint16Array(8);
// parseV4's result: values above 2^31 would be boxed as heap numbers if returned.
const quad = new Uint32Array(1);

/**
 * Parses `text` into `out` and returns its family, or INVALID. IPv4 is strict dotted-quad
 * (four decimal parts, no leading zeros). With `allowZone`, an IPv6 zone (`fe80::1%eth0`,
 * as Node reports link-local peers) is ignored instead of rejected.
 */
export function parseIp(text: string, out: Uint32Array, allowZone = false): Family {
  // Most clients are IPv4, and an IPv6 address fails the dotted quad within five characters.
  if (parseV4(text, 0, text.length)) {
    out[0] = quad[0]!;
    return IPV4;
  }
  let end = text.length;
  const zone = text.indexOf('%');
  if (zone >= 0) {
    if (!allowZone) return INVALID;
    end = zone;
  }
  return parseV6(text, end, out);
}

/** Whether `text[start, end)` is a dotted quad; its value goes to `quad[0]`. */
function parseV4(text: string, start: number, end: number): boolean {
  let value = 0;
  let i = start;
  for (let part = 0; part < 4; part++) {
    if (part > 0) {
      if (i >= end || text.charCodeAt(i) !== DOT) return false;
      i++;
    }
    let octet = i < end ? text.charCodeAt(i) - 48 : -1;
    if (octet < 0 || octet > 9) return false;
    i++;
    // Up to two more digits, none after a leading zero (`010` reads as octal elsewhere).
    for (let more = 0; more < 2 && octet !== 0 && i < end; more++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      octet = octet * 10 + d;
      i++;
    }
    if (octet > 255) return false;
    value = value * 256 + octet;
  }
  if (i !== end) return false;
  quad[0] = value;
  return true;
}

/** Hex digit values by character code, -1 for anything else. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 128; c++) {
  const digit = parseInt(String.fromCharCode(c), 16);
  if (!Number.isNaN(digit)) HEX[c] = digit;
}

function parseV6(text: string, end: number, out: Uint32Array): Family {
  let count = 0; // groups written
  let gap = -1; // where `::` stands, as a group index
  let i = 0;
  if (text.charCodeAt(0) === COLON) {
    if (text.charCodeAt(1) !== COLON) return INVALID;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    let value = 0;
    let j = i;
    for (; j < end; j++) {
      const c = text.charCodeAt(j);
      const d = c < 128 ? HEX[c]! : -1;
      if (d < 0) break;
      value = (value << 4) | d;
    }
    if (j < end && text.charCodeAt(j) === DOT) {
      // An embedded IPv4 address ends the text and fills the last two groups.
      if (count > 6 || !parseV4(text, i, end)) return INVALID;
      groups[count++] = quad[0]! >>> 16;
      groups[count++] = quad[0]! & 0xffff;
      break;
    }
    const digits = j - i;
    if (digits === 0 || digits > 4 || count === 8) return INVALID;
    groups[count++] = value;
    if (j === end) break;
    if (text.charCodeAt(j) !== COLON || j + 1 === end) return INVALID;
    j++;
    if (text.charCodeAt(j) === COLON) {
      if (gap >= 0) return INVALID;
      gap = count;
      j++;
    }
    i = j;
  }
  if (gap < 0 ? count !== 8 : count > 7) return INVALID;
  if (gap >= 0) {
    // Move the groups after `::` to the end and zero the hole.
    const tail = count - gap;
    for (let k = 0; k < tail; k++) groups[7 - k] = groups[count - 1 - k]!;
    for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  }
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    out[0] = ((groups[6]! << 16) | groups[7]!) >>> 0;
    return IPV4;
  }
  out[0] = ((groups[0]! << 16) | groups[1]!) >>> 0;
  out[1] = ((groups[2]! << 16) | groups[3]!) >>> 0;
  out[2] = ((groups[4]! << 16) | groups[5]!) >>> 0;
  out[3] = ((groups[6]! << 16) | groups[7]!) >>> 0;
  return IPV6;
}
