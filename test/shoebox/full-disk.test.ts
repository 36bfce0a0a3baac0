// A full disk fails the cache's, the health check's and the metrics' writes after their
// temporary file exists: each is removed again, rather than left holding the space, one
// more with every failed write. svc.log keeps whole lines when a write stops part way.
// Needs a small tmpfs (mount, as root); skipped elsewhere.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { probeCacheFolder } from '../../runtime/endpoints/health-checks.ts';
import { CacheStore } from '../../runtime/knots/cache-store.ts';
import { LogWriter } from '../../runtime/shoebox/log.ts';
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

  it('starts the next line of svc.log on a line of its own after a write that stopped part way', async (t) => {
    const stderr: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    await rm(join(disk, 'filler'));
    await writeFile(join(disk, 'filler'), Buffer.alloc(56 * 1024)); // 8 KiB left
    const file = join(disk, 'shoebox', 'logs', 'svc.log');
    const writer = new LogWriter(file, { maxBytes: 1 << 20, keep: 1 });
    const long = `[t] [404] GET /${'a'.repeat(1000)}\n`;
    for (let i = 0; i < 20; i++) writer.append(long);
    await writer.flush();
    assert.match(stderr[0]!, /ENOSPC/);
    await rm(join(disk, 'filler'));
    writer.append('[t] [404] GET /after\n');
    await writer.flush();
    const lines = (await readFile(file, 'utf8')).split('\n');
    assert.equal(lines.at(-2), '[t] [404] GET /after');
    // Whole lines, and the start of the one the disk cut short (all of it went to stderr).
    for (const line of lines.slice(0, -2)) assert.ok(line !== '' && long.startsWith(line), line);
  });
});
