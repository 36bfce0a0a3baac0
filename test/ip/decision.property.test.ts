// The whole chain — svc.json validation, compiled tables, runtime filter — against the
// ipaddr.js reference of SPEC §5, on random rule sets and 12,000 random requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createIpFilter } from '../../runtime/ip/index.ts';
import { compileIp } from './compile.ts';
import { clientAddress, ipRules, networks, requestPath } from './arbitraries.ts';
import { referenceAllows } from './reference.ts';

const RUNS = 300;
const REQUESTS_PER_RUN = 40;

test('compiled IP tables decide every request as the reference does', () => {
  const scenario = networks.chain((n) =>
    fc.record({
      ip: ipRules(n),
      requests: fc.array(fc.tuple(clientAddress(n), requestPath), { minLength: REQUESTS_PER_RUN, maxLength: REQUESTS_PER_RUN }),
    }),
  );
  let decided = 0;
  fc.assert(
    fc.property(scenario, ({ ip, requests }) => {
      const allowed = createIpFilter(compileIp(ip));
      for (const [address, path] of requests) {
        assert.equal(allowed(address, path), referenceAllows(ip, address, path), `${address} → ${path}`);
        decided++;
      }
    }),
    { numRuns: RUNS },
  );
  assert.ok(decided >= 10_000);
});
