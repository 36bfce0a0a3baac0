// The request-time parser against ipaddr.js: same verdict and same value on
// addresses, near-addresses and junk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { INVALID, IPV4, IPV6, parseIp } from '../../runtime/ip/address.ts';
import { AddressCache } from '../../runtime/ip/address-cache.ts';

/**
 * What the parser should return for `text`, by ipaddr.js: family and 32-bit words, or
 * null. Stricter than ipaddr.js on purpose: an embedded IPv4 tail must be a dotted quad
 * without leading zeros too (`::01.2.3.4` is as ambiguous as `01.2.3.4`). And where
 * ipaddr.js reads the deprecated IPv4-compatible `::1.2.3.4` as mapped, RFC 4291 and
 * this parser keep it the IPv6 address ::102:304.
 */
function expected(input: string): { family: number; words: number[] } | null {
  const text = input.replace(/^::(?=[0-9]+\.[0-9.]*$)/, '::0:');
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) address = ipaddr.IPv4.parse(text);
  else if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text) && (!tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail))) {
    address = ipaddr.IPv6.parse(text);
  } else return null;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  const bytes = address.toByteArray();
  const words = [];
  for (let i = 0; i < bytes.length; i += 4) words.push(((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]) >>> 0);
  return { family: address.kind() === 'ipv4' ? 4 : 6, words };
}

function parsed(text: string): { family: number; words: number[] } | null {
  const out = new Uint32Array(4);
  const family = parseIp(text, out);
  return family === INVALID ? null : { family, words: [...out.subarray(0, family === IPV4 ? 1 : 4)] };
}

const group = fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 1, maxLength: 4 }), fc.constantFrom('0', 'ffff', 'FFFF', '00000', '1.2.3.4', '255.0.0.1', '01.2.3.4', '1.2.3'));
const nearAddress = fc.oneof(
  fc.array(group, { minLength: 1, maxLength: 9 }).chain((groups) =>
    fc.integer({ min: -1, max: groups.length }).map((gap) => {
      const parts = [...groups];
      if (gap >= 0) parts.splice(gap, 0, '');
      return parts.join(':').replace(/^:(?!:)/, '::').replace(/(?<!:):$/, '::');
    }),
  ),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('', '00', '01', 'a')), { minLength: 1, maxLength: 5 }).map((p) => p.join('.')),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF:.g/% '), maxLength: 24 }),
);

test('parseIp agrees with ipaddr.js on validity and value', () => {
  fc.assert(
    fc.property(nearAddress, (text) => {
      assert.deepEqual(parsed(text), expected(text), JSON.stringify(text));
    }),
    { numRuns: 20_000 },
  );
});

test('parseIp rejects what config validation must reject', () => {
  for (const text of ['1.2.3', '::g', '1.2.3.4.5', '01.2.3.4', '256.0.0.1', '1::2::3', ':1', '1:', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8::', '::1.2.3', '12345::', 'fe80::1%eth0', '', ' 1.2.3.4']) {
    assert.equal(parseIp(text, new Uint32Array(4)), INVALID, text);
  }
});

test('parseIp ignores an IPv6 zone when allowed, as Node reports link-local peers', () => {
  const out = new Uint32Array(4);
  assert.equal(parseIp('fe80::1%eth0', out, true), 6);
  assert.deepEqual([...out], [0xfe800000, 0, 0, 1]);
});

test('the address cache gives IPv4-mapped addresses their IPv4 form and IPv6 its RFC 5952 form', () => {
  const cache = new AddressCache();
  const shown = (text: string): string => cache.text(cache.slot(text));
  assert.equal(shown('::ffff:10.0.0.5'), '10.0.0.5');
  assert.equal(shown('::FFFF:7f00:1'), '127.0.0.1');
  assert.equal(shown('0:0:0:0:0:ffff:c0a8:0101'), '192.168.1.1');
  assert.equal(shown('::ffff:10.0.0.6%eth0'), '10.0.0.6');
  assert.equal(shown('::1'), '::1');
  assert.equal(shown('::10.0.0.5'), '::a00:5');
  assert.equal(shown('0:0:0:0:0:0:0:1'), '::1');
  assert.equal(shown('FE80:0::1%eth0'), 'fe80::1%eth0');
  assert.equal(shown('1:0:0:2:0:0:0:3'), '1:0:0:2::3');
  assert.equal(shown('1:0:2:3:4:5:6:7'), '1:0:2:3:4:5:6:7');
  assert.equal(shown('10.0.0.5'), '10.0.0.5');
  assert.equal(shown('garbage'), 'garbage');
});

test('the address cache shows a text known to be canonical as it is, and finds a spelling of it by its canonical form', () => {
  const cache = new AddressCache();
  const long = cache.slot('0:0:0:0:0:0:0:1');
  assert.equal(cache.slot('::1'), long);
  assert.equal(cache.text(cache.slot('::2', true)), '::2');
  assert.equal(cache.text(cache.slot('::ffff:10.0.0.5', true)), '10.0.0.5');
});

test('the address cache parses a mapped address once: its IPv4 form finds the same slot', () => {
  const cache = new AddressCache();
  const mapped = cache.slot('::ffff:10.0.0.5');
  assert.equal(cache.slot('10.0.0.5'), mapped);
  assert.equal(cache.family(mapped), IPV4);
  assert.equal(cache.address(mapped)[0], 0x0a000005);
  const v6 = cache.slot('2001:db8::1');
  assert.notEqual(v6, mapped);
  assert.equal(cache.family(v6), IPV6);
});

test('the address cache restarts when full and still answers right', () => {
  const cache = new AddressCache();
  for (let i = 0; i < 10_000; i++) {
    const text = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const slot = cache.slot(text);
    assert.equal(cache.text(slot), text);
    assert.equal(cache.address(slot)[0], (0x0a000000 | i) >>> 0);
  }
  assert.equal(cache.text(cache.slot('::ffff:10.0.0.7')), '10.0.0.7');
});
