// ShoeCacheKnots over HTTP, on the test clock: MISS then HIT from shoebox/cache/, keyed
// by path and sorted query; TTL from the entry or svc.json; no-store both ways; ETag and
// 304; damaged entries are misses and get replaced; `svc cache:clear` empties the folder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { clearCache } from '../../runtime/knots/clear-cache.ts';
import { eventually } from '../support/cli.ts';
import { clock, get, startFixture, svcAsync } from '../support/knots.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { raw, type Running } from '../support/server.ts';

describe('ShoeCacheKnots', () => {
  let server: Running;
  let folder: string;
  before(async () => {
    server = await startFixture('shoe-cache');
    folder = join(server.root, 'shoebox', 'cache');
  });
  after(() => server.close());
  beforeEach(() => clearCache(server.root));

  const computed = (body: string): number => JSON.parse(body).computed;
  const entries = async (): Promise<string[]> => (await readdir(folder)).sort();

  it('stores a GET 200 on disk and serves it again as a HIT with the same body and type', async () => {
    const miss = await get(server, '/report?b=2&a=1');
    assert.equal(miss.status, 200);
    assert.equal(miss.headers['x-cache'], 'MISS');
    assert.equal(miss.headers['x-request-only'], 'not replayed');
    const files = await entries();
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^[0-9a-f]{64}\.entry$/);

    const hit = await get(server, '/report?a=1&b=2');
    assert.equal(hit.status, 200);
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(hit.body, miss.body);
    assert.equal(hit.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(hit.headers.etag, miss.headers.etag);
    assert.equal(hit.headers['x-request-only'], undefined, 'only safe headers are stored');

    const head = await raw(server.url, '/report?a=1&b=2', { method: 'HEAD' });
    assert.equal(head.headers['x-cache'], 'HIT');
    assert.equal(head.body, '');
    assert.equal((await get(server, '/report?a=2')).headers['x-cache'], 'MISS', 'another query is another entry');
  });

  it('keeps a path with an encoded question mark apart from that path with a query', async () => {
    assert.deepEqual(JSON.parse((await get(server, '/page/a%3Fb=1')).body), { name: 'a?b=1', query: '' });
    const other = await get(server, '/page/a?b=1');
    assert.equal(other.headers['x-cache'], 'MISS');
    assert.deepEqual(JSON.parse(other.body), { name: 'a', query: 'b=1' });
    assert.equal((await get(server, '/page/a%3fb=1')).headers['x-cache'], 'HIT', 'either case of the escape is one path');
  });

  it('keeps the answers to different hosts apart: one built from Host is never replayed to another (cache poisoning)', async () => {
    const first = await get(server, '/report?hosted', { host: 'evil.example' });
    assert.equal(first.headers['x-cache'], 'MISS');
    assert.equal((await get(server, '/report?hosted', { host: 'EVIL.example' })).headers['x-cache'], 'HIT', 'a host name is case-insensitive');
    const other = await get(server, '/report?hosted', { host: 'shop.example' });
    assert.equal(other.headers['x-cache'], 'MISS');
    assert.notEqual(JSON.parse(other.body).computed, JSON.parse(first.body).computed);
  });

  it('keeps the headers the content needs', async () => {
    const miss = await get(server, '/text');
    const hit = await get(server, '/text');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(hit.body, miss.body);
    assert.equal(hit.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(hit.headers['content-language'], 'en');
  });

  it('expires an entry after its TTL (the entry parameter)', async () => {
    const first = computed((await get(server, '/report?ttl')).body);
    clock.now += 29_000;
    const hit = await get(server, '/report?ttl');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(hit.headers.age, '29');
    clock.now += 1_000;
    const expired = await get(server, '/report?ttl');
    assert.equal(expired.headers['x-cache'], 'MISS');
    assert.ok(computed(expired.body) > first);
    assert.equal((await get(server, '/report?ttl')).headers['x-cache'], 'HIT', 'and stores the fresh answer');
  });

  it('does not serve an entry stored before the clock was set back for the step on top of its TTL', async () => {
    const start = clock.now;
    const first = computed((await get(server, '/report?stepped')).body);
    clock.now = start - 3_600_000; // NTP steps the clock back an hour
    try {
      const after = await get(server, '/report?stepped');
      assert.equal(after.headers['x-cache'], 'MISS');
      assert.notEqual(computed(after.body), first);
      assert.equal((await get(server, '/report?stepped')).headers['x-cache'], 'HIT', 'and stores the fresh answer');
    } finally {
      clock.now = start;
    }
  });

  it('takes the TTL from svc.json cache.ttl when the entry has none', async () => {
    await get(server, '/configured');
    clock.now += 4_999;
    assert.equal((await get(server, '/configured')).headers['x-cache'], 'HIT');
    clock.now += 1;
    assert.equal((await get(server, '/configured')).headers['x-cache'], 'MISS');
  });

  it("keeps an answer no longer than its own max-age or s-maxage, when that is below the TTL", async () => {
    const cases: Array<[string, number]> = [
      ['max-age=10', 10_000],
      ['public, max-age=100, s-maxage=5', 5_000], // a shared cache reads s-maxage first
      ['max-age=3600', 30_000], // never beyond the knot's TTL
      ['max-age="7"', 7_000],
    ];
    for (const [cc, lifetime] of cases) {
      const url = `/brief?cc=${encodeURIComponent(cc)}`;
      assert.equal((await get(server, url)).headers['x-cache'], 'MISS');
      clock.now += lifetime - 1;
      assert.equal((await get(server, url)).headers['x-cache'], 'HIT', cc);
      clock.now += 1;
      assert.equal((await get(server, url)).headers['x-cache'], 'MISS', cc);
    }
    // Stale at once: not stored at all.
    for (const cc of ['max-age=0', 'max-age=soon', 's-maxage=0, max-age=60']) {
      const url = `/brief?cc=${encodeURIComponent(cc)}`;
      await get(server, url);
      assert.equal((await get(server, url)).headers['x-cache'], 'MISS', cc);
    }
  });

  it('does not store a response marked Cache-Control: no-store', async () => {
    const a = await get(server, '/private');
    const b = await get(server, '/private');
    assert.equal(b.headers['x-cache'], 'MISS');
    assert.notEqual(computed(a.body), computed(b.body));
    assert.deepEqual(await entries(), []);
  });

  it('passes a streamed Response on as it comes, without storing it', async () => {
    const a = await get(server, '/streamed');
    const b = await get(server, '/streamed');
    assert.equal(a.headers['transfer-encoding'], 'chunked');
    assert.equal(b.headers['x-cache'], 'MISS');
    assert.notEqual(a.body, b.body);
    assert.deepEqual(await entries(), []);
  });

  it('bypasses the cache for a request with Cache-Control: no-store', async () => {
    const stored = await get(server, '/report?bypass');
    const bypassed = await get(server, '/report?bypass', { 'cache-control': 'no-store' });
    assert.equal(bypassed.headers['x-cache'], 'MISS');
    assert.notEqual(computed(bypassed.body), computed(stored.body));
    const hit = await get(server, '/report?bypass');
    assert.equal(hit.body, stored.body, 'the bypassing answer was not stored');
  });

  it("serves a request's Cache-Control: max-age=N only an entry at most N s old, and stores the fresh answer (a browser's reload sends max-age=0)", async () => {
    const stored = computed((await get(server, '/report?young')).body);
    clock.now += 10_000;
    const young = await get(server, '/report?young', { 'cache-control': 'max-age=20' });
    assert.deepEqual([young.headers['x-cache'], young.headers.age, computed(young.body)], ['HIT', '10', stored]);
    const reload = await get(server, '/report?young', { 'cache-control': 'max-age=0' });
    assert.equal(reload.headers['x-cache'], 'MISS');
    assert.ok(computed(reload.body) > stored);
    const after = await get(server, '/report?young');
    assert.deepEqual([after.headers['x-cache'], after.headers.age, computed(after.body)], ['HIT', '0', computed(reload.body)]);
    // Not a number of seconds: stale at once, as a response's own is (RFC 9111 §4.2.1).
    clock.now += 1_000;
    assert.equal((await get(server, '/report?young', { 'cache-control': 'max-age=soon' })).headers['x-cache'], 'MISS');
  });

  it("does not replay one client's answer to a request with Authorization to others, unless the answer says public", async () => {
    const alice = await get(server, '/whoami', { authorization: 'Bearer alice' });
    assert.equal(alice.headers['x-cache'], 'MISS');
    assert.deepEqual(await entries(), []);
    const bob = await get(server, '/whoami', { authorization: 'Bearer bob' });
    assert.equal(bob.headers['x-cache'], 'MISS');
    assert.equal(JSON.parse(bob.body).authorization, 'Bearer bob');

    await get(server, '/whoami?public', { authorization: 'Bearer alice' });
    assert.equal((await get(server, '/whoami?public', { authorization: 'Bearer bob' })).headers['x-cache'], 'HIT');
  });

  it('answers If-None-Match with 304 when the ETag (a hash of the body) matches', async () => {
    const miss = await get(server, '/report?etag');
    const etag = String(miss.headers.etag);
    assert.match(etag, /^"[\w-]{43}"$/);
    const notModified = await get(server, '/report?etag', { 'if-none-match': `W/"other", ${etag}` });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body, '');
    assert.equal(notModified.headers.etag, etag);
    assert.equal(notModified.headers['x-cache'], 'HIT');
    assert.equal((await get(server, '/report?etag', { 'if-none-match': '"other"' })).status, 200);
  });

  it('answers a matching If-None-Match on a MISS with 304 that keeps what is not about the body (Vary, Set-Cookie)', async () => {
    const etag = String((await get(server, '/personal')).headers.etag);
    const notModified = await get(server, '/personal', { 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers['x-cache'], 'MISS', 'a response with Vary is not stored');
    assert.equal(notModified.headers.etag, etag);
    assert.equal(notModified.headers.vary, 'accept-language');
    assert.deepEqual(notModified.headers['set-cookie'], ['seen=1']);
    assert.equal(notModified.headers['content-type'], undefined);
    assert.equal(notModified.headers['content-language'], undefined);
  });

  it('caches only GET 200: errors and other methods pass through', async () => {
    const a = await get(server, '/missing');
    assert.equal(a.status, 404);
    assert.equal(a.headers['x-cache'], 'MISS');
    assert.notEqual((await get(server, '/missing')).body, a.body);
    await get(server, '/report?post');
    const post = await raw(server.url, '/report?post', { method: 'POST' });
    assert.equal(post.status, 200);
    assert.equal(post.headers['x-cache'], undefined);
    assert.equal((await entries()).length, 1);
  });

  it('treats a damaged entry as a MISS and replaces it', async () => {
    const original = await get(server, '/report?damaged');
    const [file] = await entries();
    const path = join(folder, file!);
    const intact = await readFile(path);
    for (const damaged of ['garbage', intact.subarray(0, intact.length - 3), Buffer.concat([intact.subarray(0, -1), Buffer.from('!')]), '{"format":1}\n{}']) {
      await writeFile(path, damaged);
      const res = await get(server, '/report?damaged');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-cache'], 'MISS');
      assert.notEqual(res.body, original.body);
      assert.equal((await get(server, '/report?damaged')).headers['x-cache'], 'HIT', 'replaced by the fresh answer');
    }
  });

  it('treats a FIFO in an entry\'s place as a MISS, without waiting for a writer', async () => {
    await get(server, '/report?fifo');
    const [file] = await entries();
    const path = join(folder, file!);
    await rm(path);
    execFileSync('mkfifo', [path]);
    try {
      // The read used to wait for a writer: no answer ever, and no exit on SIGTERM.
      const res = await Promise.race([get(server, '/report?fifo'), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000).unref())]);
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-cache'], 'MISS');
      assert.equal((await get(server, '/report?fifo')).headers['x-cache'], 'HIT', 'replaced by the fresh answer');
    } finally {
      // A reader still waiting is let go: a writer comes and goes.
      await open(path, constants.O_WRONLY | constants.O_NONBLOCK).then((handle) => handle.close(), () => {});
    }
  });

  it('treats an intact entry it would never have written (a bad header, another status) as a MISS', async () => {
    await get(server, '/report?doctored');
    const [file] = await entries();
    const path = join(folder, file!);
    const intact = await readFile(path);
    const newline = intact.indexOf(0x0a);
    const header = JSON.parse(intact.subarray(0, newline).toString()) as { status: number; headers: Record<string, string>; etag: string };
    const doctored = [
      { ...header, headers: { ...header.headers, 'bad header': 'x' } },
      { ...header, headers: { ...header.headers, 'content-type': 'text/plain\r\nset-cookie: a=b' } },
      { ...header, etag: '"x"\r\n' },
      { ...header, status: 500 },
      { ...header, status: 99999 },
    ];
    for (const changed of doctored) {
      await writeFile(path, Buffer.concat([Buffer.from(`${JSON.stringify(changed)}\n`), intact.subarray(newline + 1)]));
      const res = await get(server, '/report?doctored');
      assert.equal(res.status, 200, JSON.stringify(changed));
      assert.equal(res.headers['x-cache'], 'MISS', JSON.stringify(changed));
    }
  });

  it('leaves no temporary files behind', async () => {
    await Promise.all(Array.from({ length: 20 }, () => get(server, '/report?concurrent', { 'cache-control': 'no-cache' })));
    assert.deepEqual((await entries()).filter((name) => !name.endsWith('.entry')), []);
  });

  it('is emptied by svc cache:clear, which says what it removed', async () => {
    await get(server, '/report?one');
    await get(server, '/report?two');
    const bytes = (await Promise.all((await entries()).map((name) => readFile(join(folder, name))))).reduce((sum, b) => sum + b.length, 0);
    // The server keeps serving meanwhile: the command runs in another process.
    const cleared = await svcAsync(server.root, ['cache:clear']);
    assert.equal(cleared.status, 0, cleared.stderr);
    assert.match(cleared.stdout.trim(), new RegExp(`^svc: removed 2 files \\((\\d+\\.\\d KiB, )?${bytes} bytes\\) from shoebox/cache/$`));
    assert.deepEqual(await entries(), []);
    assert.equal((await get(server, '/report?one')).headers['x-cache'], 'MISS', 'the running server sees it at once');
  });

  it('holds at most maxEntries entries, however many keys clients make up', async () => {
    for (let i = 0; i < 40; i++) {
      clock.now += 10; // each entry expires a little later than the one before
      assert.equal((await get(server, `/bounded?junk=${i}`)).headers['x-cache'], 'MISS');
    }
    await eventually(async () => (await entries()).length <= 10);
    assert.equal((await get(server, '/bounded?junk=39')).headers['x-cache'], 'HIT', 'the latest entries stay');
  });

  it('sweeps out expired entries, with the expiry each was written with', async () => {
    for (let i = 0; i < 5; i++) await get(server, `/bounded?early=${i}`);
    await get(server, '/report?kept'); // the TTL of /report is 30 s too: expired as well once the clock moves
    clock.now += 31_000;
    for (let i = 0; i < 4; i++) await get(server, `/bounded?late=${i}`);
    // A sweep runs every tenth of maxEntries writes: here at each one, in the background.
    await eventually(async () => (await entries()).length === 4);
  });

  it('counts a link in the cache folder as itself, which is what it removes, not what it points to', async () => {
    const outside = join(server.root, 'large.bin');
    await writeFile(outside, Buffer.alloc(100_000));
    await symlink(outside, join(folder, 'link'));
    const cleared = await clearCache(server.root);
    assert.equal(cleared.files, 1);
    assert.ok(cleared.bytes < 1000, `${cleared.bytes} bytes`);
    assert.equal((await readFile(outside)).length, 100_000, 'the file it pointed to stays');
  });
});

describe('ShoeCacheKnots without a usable shoebox/cache/', () => {
  it('serves uncached, and says so in svc.log without a line per request', async () => {
    // A file where the folder should be: the server must still start.
    const server = await startFixture('shoe-cache', {}, { 'shoebox/cache': 'not a folder' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await get(server, '/report?no-folder');
        assert.equal(res.status, 200);
        assert.equal(res.headers['x-cache'], 'MISS');
      }
      const lines = await server.logLines();
      assert.ok(lines.some((line) => /\[cache\] ShoeCacheKnots cannot use .*shoebox\/cache \(EEXIST/.test(line)), lines.join('\n'));
      assert.equal(lines.filter((line) => line.includes('could not store')).length, 1, 'one line for three failed writes');
    } finally {
      await server.close();
    }
  });
});

describe('svc cache:clear', () => {
  it('says in one line, exit 1, when shoebox/cache is not a folder', async () => {
    const root = await makeProject({ 'package.json': '{}', 'shoebox/cache': 'a file' });
    try {
      const result = await svcAsync(root, ['cache:clear']);
      assert.equal(result.status, 1);
      assert.match(result.stderr, /^svc: cannot empty shoebox\/cache\/: ENOTDIR/);
      assert.doesNotMatch(result.stderr, /^\s+at /m);
    } finally {
      await removeProject(root);
    }
  });

  it('works when shoebox/cache/ does not exist', async () => {
    const root = await makeProject({ 'package.json': '{}' });
    try {
      const result = await svcAsync(root, ['cache:clear']);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'svc: removed 0 files (0 bytes) from shoebox/cache/');
    } finally {
      await removeProject(root);
    }
  });
});
