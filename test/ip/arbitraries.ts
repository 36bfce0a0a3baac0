// fast-check generators for IP rule sets and requests. Addresses cluster around a few
// random networks per run, so that entries of every prefix length and clients hit,
// miss and straddle each other instead of scattering over 2^128 addresses.
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';

type Words = [number, number, number, number];

const word = fc.integer({ min: 0, max: 0xffffffff });

export interface Networks {
  v4: number[];
  v6: Words[];
}

export const networks: fc.Arbitrary<Networks> = fc.record({
  v4: fc.array(word, { minLength: 1, maxLength: 3 }),
  v6: fc.array(fc.tuple(word, word, word, word), { minLength: 1, maxLength: 3 }),
});

const lowMask = (bits: number): number => (bits >= 32 ? 0xffffffff : bits <= 0 ? 0 : (2 ** bits - 1));

/** An address within `2^width` of one of the networks. */
const nearV4 = (n: Networks): fc.Arbitrary<number> =>
  fc.tuple(fc.constantFrom(...n.v4), fc.integer({ min: 0, max: 32 }), word).map(([base, width, noise]) => (base ^ (noise & lowMask(width))) >>> 0);

const nearV6 = (n: Networks): fc.Arbitrary<Words> =>
  fc.tuple(fc.constantFrom(...n.v6), fc.integer({ min: 0, max: 128 }), fc.tuple(word, word, word, word)).map(([base, width, noise]) =>
    base.map((w, i) => (w ^ (noise[i] & lowMask(width - (3 - i) * 32))) >>> 0) as Words,
  );

const dotted = (v: number): string => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');

const v6Parts = (w: Words): number[] => w.flatMap((x) => [x >>> 16, x & 0xffff]);

/** The same IPv6 address in the spellings people and proxies use. */
const v6Text = (w: Words): fc.Arbitrary<string> => {
  const address = new ipaddr.IPv6(v6Parts(w));
  const fixedLength = v6Parts(w).map((part) => part.toString(16).padStart(4, '0')).join(':');
  return fc.constantFrom(address.toString(), address.toNormalizedString(), fixedLength, address.toString().toUpperCase());
};

/** An IPv4 address written as IPv4-mapped IPv6. */
const mappedText = (v: number): fc.Arbitrary<string> =>
  fc.constantFrom(`::ffff:${dotted(v)}`, `::FFFF:${dotted(v)}`, ipaddr.IPv4.parse(dotted(v)).toIPv4MappedAddress().toNormalizedString());

export const clientAddress = (n: Networks): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: nearV4(n).map(dotted) },
    { weight: 4, arbitrary: nearV6(n).chain(v6Text) },
    { weight: 2, arbitrary: nearV4(n).chain(mappedText) },
    { weight: 1, arbitrary: fc.constantFrom('', 'unknown', '1.2.3') },
  );

const withPrefix = (text: string, max: number, min = 0): fc.Arbitrary<string> =>
  fc.option(fc.integer({ min, max }), { nil: undefined }).map((prefix) => (prefix === undefined ? text : `${text}/${prefix}`));

export const ipEntry = (n: Networks): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: nearV4(n).chain((v) => withPrefix(dotted(v), 32)) },
    { weight: 4, arbitrary: nearV6(n).chain((w) => withPrefix(new ipaddr.IPv6(v6Parts(w)).toString(), 128)) },
    { weight: 1, arbitrary: nearV4(n).chain((v) => withPrefix(`::ffff:${dotted(v)}`, 128, 96)) },
  );

const SEGMENTS = ['admin', 'administrator', 'api', 'v1', 'x'];
const segmentPath = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...SEGMENTS), { minLength: min, maxLength: max }).map((s) => `/${s.join('/')}`);

/** A canonical request path. */
export const requestPath = segmentPath(0, 3);

const list = (n: Networks): fc.Arbitrary<string[]> => fc.array(ipEntry(n), { maxLength: 4 });
const level = (n: Networks) => fc.record({ whitelist: list(n), blacklist: list(n) });

/** svc.json `ip` with global lists and a few route levels (`/` included now and then). */
export const ipRules = (n: Networks) =>
  fc.record({
    whitelist: list(n),
    blacklist: list(n),
    routes: fc.dictionary(fc.oneof({ weight: 1, arbitrary: fc.constant('/') }, { weight: 6, arbitrary: segmentPath(1, 2) }), level(n), { maxKeys: 3 }),
  });
