// Every file under shoebox/outsole/ is served at /shoebox/outsole/<path> (the URL
// shoeAsset() gives), through a real build: nested folders, caching headers, HEAD, and
// nothing outside the folder or hidden in it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { firstChunk, raw } from '../support/server.ts';
import { removeProject } from '../support/project.ts';
import { appFiles, assetUrls, assetUrlsRoute, buildProject, get, serve, type Served } from './support.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('shoebox/outsole/ files', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject(undefined, {
      ...appFiles,
      'routes/assets.ts': assetUrlsRoute({ logo: 'img/logo.png', notes: 'notes.txt' }),
      'routes/taken.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/shoebox/outsole/taken.txt', () => 'the route');
};
`,
      'shoebox/outsole/notes.txt': 'public notes',
      'shoebox/outsole/taken.txt': 'the file',
      'shoebox/outsole/.env': 'SECRET=1',
      'shoebox/outsole/img/.hidden.png': 'SECRET=2',
      'shoebox/secret.txt': 'SECRET=3',
    });
    await writeFile(join(root, 'shoebox', 'outsole', 'img', 'logo.png'), PNG);
    // Links planted in the folder: out of it (a file, a folder), and within it.
    await symlink(join(root, 'shoebox', 'secret.txt'), join(root, 'shoebox', 'outsole', 'leak.txt'));
    await mkdir(join(root, 'outside'));
    await writeFile(join(root, 'outside', 'key.txt'), 'SECRET=4');
    await symlink(join(root, 'outside'), join(root, 'shoebox', 'outsole', 'linked'));
    await symlink('notes.txt', join(root, 'shoebox', 'outsole', 'alias.txt'));
    served = await serve(root);
  });
  after(async () => {
    await served.stop();
    await removeProject(root);
  });

  it('serves the URLs shoeAsset() gives, nested or not, with content type, ETag and 304', async () => {
    const urls = await assetUrls(served);
    assert.deepEqual(urls, { logo: '/shoebox/outsole/img/logo.png', notes: '/shoebox/outsole/notes.txt' });
    const logo = await fetch(`${served.url}${urls.logo}`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    assert.equal(logo.headers.get('cache-control'), 'public, max-age=3600');
    assert.ok(Buffer.from(await logo.arrayBuffer()).equals(PNG));
    const again = await fetch(`${served.url}${urls.logo}`, { headers: { 'if-none-match': logo.headers.get('etag')! } });
    assert.equal(again.status, 304);
    const notes = await get(`${served.url}${urls.notes}`);
    assert.deepEqual([notes.status, notes.headers.get('content-type'), notes.body], [200, 'text/plain; charset=utf-8', 'public notes']);
    const head = await raw(served.url, urls.notes, { method: 'HEAD' });
    assert.deepEqual([head.status, head.body], [200, '']);
    assert.equal((await get(`${served.url}/shoebox/outsole/docs/swagger-ui.css`)).status, 200, 'the docs files too');
    for (const [name, type] of [['clip.mp4', 'video/mp4'], ['talk.webm', 'video/webm'], ['song.mp3', 'audio/mpeg'], ['paper.pdf', 'application/pdf'], ['data.bin', 'application/octet-stream']]) {
      await writeFile(join(root, 'shoebox', 'outsole', name), 'bytes');
      assert.equal((await raw(served.url, `/shoebox/outsole/${name}`, { method: 'HEAD' })).headers['content-type'], type, name);
    }
  });

  it('lets an application route under the mount win', async () => {
    assert.equal((await get(`${served.url}/shoebox/outsole/taken.txt`)).body, 'the route');
  });

  it('answers 404 for anything but a file by plain names in the folder, and for other methods', async () => {
    const attempts = [
      '/shoebox/outsole/../../svc.json',
      '/shoebox/outsole/%2E%2E/%2E%2E/svc.json',
      '/shoebox/outsole/img/..%2F..%2F..%2Fsvc.json',
      '/shoebox/outsole/..%5C..%5Csvc.json',
      '/shoebox/outsole/.env',
      '/shoebox/outsole/img/.hidden.png',
      '/shoebox/outsole/img',
      '/shoebox/outsole',
      '/shoebox/outsole/nope.txt',
      '/shoebox/outsole/notes.txt%00.png',
      '/shoebox/outsole/../secret.txt',
      '/shoebox/outsole/%2E%2E/secret.txt',
      '/shoebox/outsole/..%2Fsecret.txt',
      '/shoebox/outsole/leak.txt',
      '/shoebox/outsole/linked/key.txt',
    ];
    for (const target of attempts) {
      const response = await raw(served.url, target);
      assert.ok(response.status === 404 || response.status === 400, `${target} answered ${response.status}`);
      assert.doesNotMatch(response.body, /SECRET/, target);
    }
    assert.equal((await raw(served.url, '/shoebox/outsole/notes.txt', { method: 'POST' })).status, 404);
  });

  it('streams a large file from disk with its length, an ETag and 304, and serves it afresh once it changes', async () => {
    const file = join(root, 'shoebox', 'outsole', 'video.bin');
    const content = randomBytes(5 * 1024 * 1024 + 7);
    await writeFile(file, content);
    const first = await fetch(`${served.url}/shoebox/outsole/video.bin`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-length'), String(content.length));
    assert.equal(first.headers.get('content-type'), 'application/octet-stream');
    assert.ok(Buffer.from(await first.arrayBuffer()).equals(content));
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[0-9a-z]+-[0-9a-z]+-[0-9a-z]+"$/, 'made of its size and times, not a hash of 5 MiB');
    assert.equal((await fetch(`${served.url}/shoebox/outsole/video.bin`, { headers: { 'if-none-match': etag } })).status, 304);
    const head = await raw(served.url, '/shoebox/outsole/video.bin', { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers['content-length'], head.body], [200, String(content.length), '']);
    const changed = randomBytes(6 * 1024 * 1024);
    await writeFile(file, changed);
    const second = await fetch(`${served.url}/shoebox/outsole/video.bin`, { headers: { 'if-none-match': etag } });
    assert.equal(second.status, 200);
    assert.notEqual(second.headers.get('etag'), etag);
    assert.ok(Buffer.from(await second.arrayBuffer()).equals(changed));
  });

  it('serves a file beyond the 2 GiB that one read can hold (it was a 404)', async () => {
    const file = join(root, 'shoebox', 'outsole', 'disk.img');
    const size = 2.5 * 1024 ** 3;
    await writeFile(file, '');
    await truncate(file, size); // sparse: no disk space taken
    const head = await raw(served.url, '/shoebox/outsole/disk.img', { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers['content-length']], [200, String(size)]);
    // The first bytes, then the client leaves: the server goes on serving.
    const start = await firstChunk(`${served.url}/shoebox/outsole/disk.img`);
    assert.ok(start.length > 0 && start.every((byte) => byte === 0));
    assert.equal((await get(`${served.url}/shoebox/outsole/notes.txt`)).body, 'public notes');
  });

  it('answers one byte range of a file, small or large, with 206 (a video player seeking, a download resuming)', async () => {
    const small = 'public notes'; // notes.txt, kept in memory
    const large = randomBytes(5 * 1024 * 1024);
    await writeFile(join(root, 'shoebox', 'outsole', 'clip.bin'), large);
    for (const [name, content] of [['notes.txt', Buffer.from(small)], ['clip.bin', large]] as const) {
      const url = `${served.url}/shoebox/outsole/${name}`;
      const size = content.length;
      const whole = await fetch(url);
      assert.equal(whole.headers.get('accept-ranges'), 'bytes', name);
      await whole.arrayBuffer();
      for (const [range, start, end] of [['bytes=2-5', 2, 5], ['bytes=3-', 3, size - 1], ['bytes=-4', size - 4, size - 1], [`bytes=1-${size + 100}`, 1, size - 1]] as const) {
        const part = await fetch(url, { headers: { range } });
        assert.equal(part.status, 206, `${name} ${range}`);
        assert.equal(part.headers.get('content-range'), `bytes ${start}-${end}/${size}`, `${name} ${range}`);
        assert.equal(part.headers.get('content-length'), String(end - start + 1), `${name} ${range}`);
        assert.ok(Buffer.from(await part.arrayBuffer()).equals(content.subarray(start, end + 1)), `${name} ${range}`);
      }
      const past = await fetch(url, { headers: { range: `bytes=${size}-` } });
      assert.deepEqual([past.status, past.headers.get('content-range')], [416, `bytes */${size}`], name);
      await past.arrayBuffer();
      // If-Range: the range only while the file is the one the client has part of.
      const etag = whole.headers.get('etag')!;
      const resumed = await fetch(url, { headers: { range: 'bytes=1-2', 'if-range': etag } });
      assert.equal(resumed.status, 206, name);
      await resumed.arrayBuffer();
      const changed = await fetch(url, { headers: { range: 'bytes=1-2', 'if-range': '"another"' } });
      assert.deepEqual([changed.status, changed.headers.get('content-length')], [200, String(size)], name);
      await changed.arrayBuffer();
      // Several ranges, or a header that does not parse: the whole file.
      for (const range of ['bytes=0-1,4-5', 'bytes=5-2', 'lines=1-2']) {
        const res = await fetch(url, { headers: { range } });
        assert.equal(res.status, 200, `${name} ${range}`);
        await res.arrayBuffer();
      }
      const head = await raw(served.url, `/shoebox/outsole/${name}`, { method: 'HEAD', headers: { range: 'bytes=0-1' } });
      assert.deepEqual([head.status, head.headers['content-length']], [200, String(size)], name);
    }
  });

  it('sends Last-Modified and answers If-Modified-Since, which If-None-Match overrides, and an If-Range date', async () => {
    const url = `${served.url}/shoebox/outsole/dated.txt`;
    const file = join(root, 'shoebox', 'outsole', 'dated.txt');
    await writeFile(file, 'dated content');
    const mtime = new Date('2026-01-02T03:04:05.678Z');
    await utimes(file, mtime, mtime);
    const first = await fetch(url);
    await first.arrayBuffer();
    const lastModified = first.headers.get('last-modified')!;
    assert.equal(lastModified, 'Fri, 02 Jan 2026 03:04:05 GMT');
    const since = async (date: string, headers: Record<string, string> = {}) => (await fetch(url, { headers: { 'if-modified-since': date, ...headers } })).status;
    assert.equal(await since(lastModified), 304);
    assert.equal(await since('Sat, 03 Jan 2026 00:00:00 GMT'), 304);
    assert.equal(await since('Thu, 01 Jan 2026 00:00:00 GMT'), 200);
    assert.equal(await since('not a date'), 200);
    assert.equal(await since(lastModified, { 'if-none-match': '"other"' }), 200, 'If-None-Match decides when both are sent');
    const ranged = await fetch(url, { headers: { range: 'bytes=0-4', 'if-range': lastModified } });
    assert.deepEqual([ranged.status, await ranged.text()], [206, 'dated']);
    const stale = await fetch(url, { headers: { range: 'bytes=0-4', 'if-range': 'Thu, 01 Jan 2026 00:00:00 GMT' } });
    assert.deepEqual([stale.status, await stale.text()], [200, 'dated content']);
  });

  it('follows a symbolic link that stays inside the folder', async () => {
    assert.equal((await get(`${served.url}/shoebox/outsole/alias.txt`)).body, 'public notes');
  });
});
