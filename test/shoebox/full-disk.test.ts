// A full disk fails the cache's, the health check's and the metrics' writes after their
// temporary file exists: each is removed again, rather than left holding the space, one
// more with every failed write. Needs a small tmpfs (mount, as root); skipped elsewhere.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { probeCacheFolder } from '../../runtime/endpoints/health-checks.ts';
import { CacheStore } from '../../runtime/knots/cache-store.ts';
import { MetricsFile } from '../../runtime/shoebox/metrics/metrics-file.ts';

const disk = mkdtempSync(join(tmpdir(), 'svc-full-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]).status === 0;

describe('a full disk', { skip: mounted ? false : 'needs `mount -t tmpfs` (root)' }, () => {
  const cache = join(disk, 'shoebox', 'cache');
  const metrics = join(disk, 'shoebox', 'metrics');

  before(async () => {
    mkdirSync(cache, { recursive: true });
    mkdirSync(metrics, { recursive: true });
    await writeFile(join(disk, 'filler'), Buffer.alloc(64 * 1024)).catch(() => {}); // fills it: ENOSPC
  });

  after(() => {
    spawnSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it('leaves no temporary file of a cache entry it could not store', async () => {
    const store = new CacheStore(cache);
    const entry = { key: '/report', status: 200, headers: {}, etag: '"x"', storedAt: Date.now(), expiresAt: Date.now() + 60_000, body: Buffer.alloc(20_000) };
    for (let i = 0; i < 3; i++) await assert.rejects(store.write(entry), { code: 'ENOSPC' });
    assert.deepEqual(readdirSync(cache), []);
  });

  it('leaves no probe file of a health check that found the cache folder full', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await probeCacheFolder(disk)).status, 'down');
    assert.deepEqual(readdirSync(cache), []);
  });

  it('leaves no temporary file of a metrics save that failed', async () => {
    const file = MetricsFile.of(disk);
    const save = { writer: 'w', save: 1, added: () => [{ method: 'GET', path: '/', hits: 1, totalMs: 1 }], ifUnreadable: [], damaged: () => {} };
    await assert.rejects(file.save(save), { code: 'ENOSPC' });
    assert.throws(() => file.saveNow({ ...save, save: 2 }), { code: 'ENOSPC' });
    assert.deepEqual(readdirSync(metrics), []);
  });
});
