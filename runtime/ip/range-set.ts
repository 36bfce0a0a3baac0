// A compiled address list: sorted, disjoint ranges in typed arrays, looked up by binary
// search, so a list of 10,000 CIDRs costs about 14 comparisons instead of 10,000.
import { IPV4, IPV6, parseIp, type Family } from './address.ts';
import type { IpList } from './tables.ts';

export class RangeSet {
  /** IPv4 range starts and ends, ascending. */
  private readonly v4Start: Uint32Array;
  private readonly v4End: Uint32Array;
  /** IPv6 ranges as 8 words each: start w0..w3, end w0..w3, ascending. */
  private readonly v6: Uint32Array;
  private readonly v6Count: number;
  readonly empty: boolean;

  constructor(list: IpList) {
    const word = new Uint32Array(4);
    this.v4Start = new Uint32Array(list.v4.length);
    this.v4End = new Uint32Array(list.v4.length);
    list.v4.forEach((range, i) => {
      const [start, end] = bounds(range);
      expectFamily(range, parseIp(start, word), IPV4);
      this.v4Start[i] = word[0]!;
      expectFamily(range, parseIp(end, word), IPV4);
      this.v4End[i] = word[0]!;
    });
    this.v6Count = list.v6.length;
    this.v6 = new Uint32Array(list.v6.length * 8);
    list.v6.forEach((range, i) => {
      const [start, end] = bounds(range);
      expectFamily(range, parseIp(start, word), IPV6);
      this.v6.set(word, i * 8);
      expectFamily(range, parseIp(end, word), IPV6);
      this.v6.set(word, i * 8 + 4);
    });
    this.empty = list.v4.length === 0 && list.v6.length === 0;
  }

  /** Whether the address parsed into `address` (see `parseIp`) lies in one of the ranges. */
  has(family: Family, address: Uint32Array): boolean {
    if (family === IPV4) return this.hasV4(address);
    if (family === IPV6) return this.hasV6(address);
    return false;
  }

  // Both lookups take the address array: a uint32 above 2^31 passed as a number would be boxed.
  private hasV4(address: Uint32Array): boolean {
    const a = address[0]!;
    const starts = this.v4Start;
    let lo = 0;
    let hi = starts.length - 1;
    // Find the last range starting at or before `a`.
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= a) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && a <= this.v4End[hi]!;
  }

  private hasV6(a: Uint32Array): boolean {
    const t = this.v6;
    const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!;
    let lo = 0;
    let hi = this.v6Count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(t, mid * 8, a0, a1, a2, a3) <= 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && compare(t, hi * 8 + 4, a0, a1, a2, a3) >= 0;
  }
}

/** -1, 0 or 1 as `table[at..at+4)` is below, equal to or above `(a0, a1, a2, a3)`, word by word. */
function compare(table: Uint32Array, at: number, a0: number, a1: number, a2: number, a3: number): number {
  let t = table[at]!;
  if (t !== a0) return t < a0 ? -1 : 1;
  t = table[at + 1]!;
  if (t !== a1) return t < a1 ? -1 : 1;
  t = table[at + 2]!;
  if (t !== a2) return t < a2 ? -1 : 1;
  t = table[at + 3]!;
  return t === a3 ? 0 : t < a3 ? -1 : 1;
}

function bounds(range: string): [string, string] {
  const dash = range.indexOf('-');
  return dash < 0 ? [range, range] : [range.slice(0, dash), range.slice(dash + 1)];
}

function expectFamily(range: string, got: Family, want: Family): void {
  if (got !== want) throw new Error(`ip-tables.json: "${range}" is not an IPv${want} range; rebuild with \`svc build\``);
}
