// Addresses written back as text, in the one form each has (RFC 5952 §4 for IPv6), so
// that equal addresses read the same in ctx.ip, log lines, rate-limit keys and
// build messages, however they were spelled.

/** An IPv4 address from its 32-bit value. */
export const dotted = (v: number): string => `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;

/**
 * An IPv6 address from its four big-endian 32-bit words (as runtime/ip/address.ts parses
 * it): lower-case hex without leading zeros, and the longest run of two or more zero
 * groups, the first on a tie, written `::`.
 */
export function ipv6Text(words: ArrayLike<number>): string {
  const groups: number[] = [];
  for (let w = 0; w < 4; w++) groups.push(words[w]! >>> 16, words[w]! & 0xffff);
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}
