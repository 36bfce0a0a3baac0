// The shipped svc.schema.json checks IP entries as `svc build` does (SPEC §6: editors
// "complete and check" svc.json): a bad address or prefix is flagged in the editor, not
// first at build time. Ajv reads the shipped file as an editor would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseIpEntry } from '../../compiler/ip-entry.ts';
import { IP_ENTRY_PATTERN } from '../../compiler/config/ip-pattern.ts';
import { IPV4, parseIp } from '../../runtime/ip/address.ts';
import { repoRoot } from '../support/project.ts';

const schema = JSON.parse(await readFile(join(repoRoot, 'svc.schema.json'), 'utf8')) as object;
const fitsSchema = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
const pattern = new RegExp(IP_ENTRY_PATTERN, 'u');

const BAD = ['10.0.0.0/33', '999.1.1.1', '256.0.0.1', '1.2.3', '010.0.0.1', '10.0.0.0/08', '10.0.0.0/', '::/129', '::g', '1::2::3', 'fe80::1%eth0', '1:2:3:4:5:6:7:8:9', ''];
const GOOD = ['10.0.0.5', '10.0.0.0/24', '0.0.0.0/0', '::1', '::1/128', '::/0', '2001:db8::/32', '2001:DB8:0:0:0:0:0:1', '::ffff:10.0.0.0/104', '1:2:3:4:5:6:7::', '::1:2:3:4:5:6:7', '1::1.2.3.4'];

test('the shipped schema accepts the demo svc.json and rejects bad IP entries in every list', async () => {
  assert.ok(fitsSchema(JSON.parse(await readFile(join(repoRoot, 'svc.json'), 'utf8'))), JSON.stringify(fitsSchema.errors));
  const documents = (entry: string) => [
    { ip: { whitelist: [entry] } },
    { ip: { blacklist: [entry] } },
    { ip: { trustProxy: [entry] } },
    { ip: { routes: { '/admin': { whitelist: [entry] } } } },
  ];
  for (const entry of GOOD) for (const document of documents(entry)) assert.ok(fitsSchema(document), `${entry} ${JSON.stringify(fitsSchema.errors)}`);
  for (const entry of BAD) for (const document of documents(entry)) assert.equal(fitsSchema(document), false, entry);
});

const group = fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 1, maxLength: 5 }), fc.constantFrom('ffff', '1.2.3.4', '01.2.3.4', '255.0.0.1', '1.2.3'));
const address = fc.oneof(
  fc.array(group, { minLength: 1, maxLength: 9 }).chain((groups) =>
    fc.integer({ min: -1, max: groups.length }).map((gap) => {
      const parts = [...groups];
      if (gap >= 0) parts.splice(gap, 0, '');
      return parts.join(':').replace(/^:(?!:)/, '::').replace(/(?<!:):$/, '::');
    }),
  ),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('', '00', '01')), { minLength: 3, maxLength: 5 }).map((p) => p.join('.')),
);
const prefix = fc.option(fc.oneof(fc.integer({ min: 0, max: 140 }).map(String), fc.constantFrom('', '08', '-1', '1a')), { nil: undefined });

test('the schema pattern accepts exactly the entries svc build accepts, but for mapped ranges shorter than /96', () => {
  fc.assert(
    fc.property(address, prefix, (text, bits) => {
      const entry = bits === undefined ? text : `${text}/${bits}`;
      const built = typeof parseIpEntry(entry) !== 'string';
      const mapped = text.includes(':') && parseIp(text, new Uint32Array(4)) === IPV4;
      if (built || !mapped) assert.equal(pattern.test(entry), built, entry);
    }),
    { numRuns: 20_000 },
  );
});
