// The JSON Schema pattern of an svc.json IP entry: the grammar `parseIpEntry` accepts
// (RFC 3986 IPv6, dotted-quad IPv4 without leading zeros, a prefix length up to 32 or
// 128), so that editors flag `10.0.0.0/33` or `999.1.1.1` before `svc build` does. One
// case stays with the build: an IPv4-mapped range shorter than /96.
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const V4 = `${OCTET}(?:\\.${OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${V4})`;

/** `(h16:){0,n-1}h16`, the groups in front of `::`, optional. */
const head = (n: number): string => (n === 0 ? '' : `(?:(?:${H16}:){0,${n - 1}}${H16})?`);

// RFC 3986 §3.2.2 IPv6address, one alternative per place of `::`.
const V6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `${head(1)}::(?:${H16}:){4}${LS32}`,
  `${head(2)}::(?:${H16}:){3}${LS32}`,
  `${head(3)}::(?:${H16}:){2}${LS32}`,
  `${head(4)}::${H16}:${LS32}`,
  `${head(5)}::${LS32}`,
  `${head(6)}::${H16}`,
  `${head(7)}::`,
].join('|');

const PREFIX_V4 = '(?:3[0-2]|[12]?[0-9])';
const PREFIX_V6 = '(?:12[0-8]|1[01][0-9]|[1-9]?[0-9])';

export const IP_ENTRY_PATTERN = `^(?:${V4}(?:/${PREFIX_V4})?|(?:${V6})(?:/${PREFIX_V6})?)$`;
