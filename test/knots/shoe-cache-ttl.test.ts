// ShoeCacheKnots' TTL is the one in force now: an entry left in shoebox/cache/ by a
// server that ran with a longer TTL (svc.json `cache.ttl` lowered since, or set to 0)
// is not served past the current TTL, though its file says it expires later.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { encodeEntry } from '../../runtime/knots/cache-entry.ts';
import { CacheStore } from '../../runtime/knots/cache-store.ts';
import { digest, entityTag } from '../../runtime/knots/http-cache.ts';
import { eventually } from '../support/cli.ts';
import { clock, get, startFixture } from '../support/knots.ts';

/** The file a ShoeCacheKnots with a one-hour TTL wrote for `key` (host, path, query) at the test clock's now. */
function storedAnHourLong(key: string): Record<string, string> {
  const body = Buffer.from('{"computed":"from an earlier run"}');
  const entry = encodeEntry({
    key,
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    etag: entityTag(digest(body)),
    storedAt: clock.now,
    expiresAt: clock.now + 3_600_000,
    body,
  });
  const file = new CacheStore('shoebox/cache').fileFor(key); // relative to the project root, as makeProject wants
  return { [file]: entry.toString('utf8') };
}

const HOST = { host: 'cache.test' };

describe('ShoeCacheKnots TTL', () => {
  it('expires an entry stored under a longer TTL after the TTL from svc.json', async () => {
    const server = await startFixture('shoe-cache', {}, storedAnHourLong('cache.test/configured'));
    try {
      const hit = await get(server, '/configured', HOST);
      assert.equal(hit.headers['x-cache'], 'HIT', 'the seeded entry is read');
      assert.equal(JSON.parse(hit.body).computed, 'from an earlier run');
      clock.now += 5_000; // svc.json cache.ttl is 5
      const expired = await get(server, '/configured', HOST);
      assert.equal(expired.headers['x-cache'], 'MISS');
      assert.equal(typeof JSON.parse(expired.body).computed, 'number');
    } finally {
      await server.close();
    }
  });

  it('serves nothing from the cache when the TTL is now 0', async () => {
    const files = { ...storedAnHourLong('cache.test/configured'), 'svc.json': '{ "cache": { "ttl": 0 } }' };
    const server = await startFixture('shoe-cache', {}, files);
    try {
      assert.equal((await get(server, '/configured', HOST)).headers['x-cache'], 'MISS');
    } finally {
      await server.close();
    }
  });
});

describe('ShoeCacheKnots with options and the TTL of svc.json', () => {
  // null stands for "no ttlSeconds" where an options object follows: JSON has no undefined.
  const route = `import type { Context, Router } from 'svc';
export default (router: Router) => {
  router.group({ middleware: [['ClockedShoeCache', [null, { maxEntries: 3 }]]] }, (r) => {
    r.get('/bounded-configured', function (this: Context) { return { query: this.query.toString(), at: Date.now() }; });
  });
};
`;

  it('takes [null, { maxEntries }]: svc.json cache.ttl, and the cap', async () => {
    const server = await startFixture('shoe-cache', {}, { 'routes/null-ttl.ts': route });
    try {
      assert.equal((await get(server, '/bounded-configured')).headers['x-cache'], 'MISS');
      clock.now += 4_999; // svc.json cache.ttl is 5
      assert.equal((await get(server, '/bounded-configured')).headers['x-cache'], 'HIT');
      clock.now += 1;
      assert.equal((await get(server, '/bounded-configured')).headers['x-cache'], 'MISS');
      for (let i = 0; i < 10; i++) await get(server, `/bounded-configured?junk=${i}`);
      const folder = join(server.root, 'shoebox', 'cache');
      await eventually(async () => (await readdir(folder)).filter((name) => name.endsWith('.entry')).length <= 3);
    } finally {
      await server.close();
    }
  });
});
