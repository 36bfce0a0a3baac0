// shoebox/logs/svc.log through a real server: one whole line per error response, even
// under concurrent requests, rotated by size with `logs.maxBytes` and `logs.keep`.
import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { makeProject, removeProject } from '../support/project.ts';
import { LogWriter } from '../../runtime/shoebox/log.ts';
import { buildProject, get, serve } from '../endpoints/support.ts';

const LINE = /^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)\] \[404\] GET \/missing\/(\d+) 404 from 127\.0\.0\.1 \(request [0-9a-f-]{36}\)$/;

async function logFiles(root: string): Promise<string[]> {
  const folder = join(root, 'shoebox', 'logs');
  return (await readdir(folder)).filter((name) => name.startsWith('svc.log')).sort();
}

describe('svc.log rotation', () => {
  const roots: string[] = [];
  after(() => Promise.all(roots.map(removeProject)));

  it('loses no line of concurrent requests and keeps every file within maxBytes', async () => {
    const root = await buildProject({ logs: { maxBytes: 2000, keep: 100 } });
    roots.push(root);
    const served = await serve(root);
    const requests = 150;
    const statuses = await Promise.all(Array.from({ length: requests }, (_, i) => get(`${served.url}/missing/${i}`).then((r) => r.status)));
    assert.ok(statuses.every((status) => status === 404));
    await served.stop();

    const files = await logFiles(root);
    assert.ok(files.length > 3, `expected rotation, got ${files.join(', ')}`);
    const seen = new Set<number>();
    for (const name of files) {
      const file = join(root, 'shoebox', 'logs', name);
      assert.ok((await stat(file)).size <= 2000, `${name} is ${(await stat(file)).size} bytes`);
      for (const line of (await readFile(file, 'utf8')).split('\n').filter(Boolean)) {
        const match = LINE.exec(line);
        assert.ok(match, `malformed line in ${name}: ${line}`);
        seen.add(Number(match[2]));
      }
    }
    assert.equal(seen.size, requests);
  });

  it('keeps only `keep` rotated files, the newest lines in svc.log', async () => {
    const root = await buildProject({ logs: { maxBytes: 400, keep: 2 } });
    roots.push(root);
    const served = await serve(root);
    for (let i = 0; i < 20; i++) await get(`${served.url}/missing/${i}`);
    await served.stop();
    assert.deepEqual(await logFiles(root), ['svc.log', 'svc.log.1', 'svc.log.2']);
    const newest = (await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8')).trimEnd().split('\n');
    assert.match(newest.at(-1)!, /GET \/missing\/19 404/);
  });

  // A container sends its logs to `docker logs` with svc.log a link to /dev/stdout; rotating
  // renamed the link to svc.log.1 and left later lines in a new file nobody reads.
  // /dev/null stands in here: a character device too, with no size to measure.
  it('never rotates a svc.log that is no regular file (a link to /dev/stdout)', { skip: process.platform === 'win32' }, async () => {
    const root = await buildProject({ logs: { maxBytes: 400, keep: 2 } });
    roots.push(root);
    await mkdir(join(root, 'shoebox', 'logs'), { recursive: true });
    await symlink('/dev/null', join(root, 'shoebox', 'logs', 'svc.log'));
    const served = await serve(root);
    for (let i = 0; i < 20; i++) await get(`${served.url}/missing/${i}`);
    await served.stop();
    assert.deepEqual(await logFiles(root), ['svc.log']);
    const log = join(root, 'shoebox', 'logs', 'svc.log');
    assert.ok((await lstat(log)).isSymbolicLink());
    assert.equal(await readlink(log), '/dev/null');
  });

  // Rotating renamed the link and left its target behind: lines went to a new svc.log
  // in shoebox/ while the file elsewhere (rotated by logrotate, say) stopped growing.
  it('never rotates a svc.log that is a link to a regular file elsewhere: every line reaches the target', { skip: process.platform === 'win32' }, async () => {
    const root = await buildProject({ logs: { maxBytes: 400, keep: 2 } });
    roots.push(root);
    await mkdir(join(root, 'shoebox', 'logs'), { recursive: true });
    await mkdir(join(root, 'var-log'));
    const target = join(root, 'var-log', 'app.log');
    await symlink(target, join(root, 'shoebox', 'logs', 'svc.log'));
    const served = await serve(root);
    for (let i = 0; i < 20; i++) await get(`${served.url}/missing/${i}`);
    await served.stop();
    assert.deepEqual(await logFiles(root), ['svc.log']);
    assert.equal(await readlink(join(root, 'shoebox', 'logs', 'svc.log')), target);
    const lines = (await readFile(target, 'utf8')).trimEnd().split('\n');
    assert.deepEqual(lines.map((line) => Number(LINE.exec(line)?.[2])), Array.from({ length: 20 }, (_, i) => i));
  });

  // Two processes serving one project (PM2's instances) each count only the bytes they
  // wrote: the second to notice the file full rotated again the file the first had just
  // started, pushing a file of a few lines into the kept ones and the oldest out.
  it('keeps writing svc.log when an old file cannot be moved (a folder in its place), and says so once', async (t) => {
    const root = await makeProject({});
    roots.push(root);
    const folder = join(root, 'shoebox', 'logs');
    await mkdir(join(folder, 'svc.log.2', 'in-the-way'), { recursive: true });
    const stderr: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    const writer = new LogWriter(join(folder, 'svc.log'), { maxBytes: 500, keep: 2 });
    const line = (i: number): string => `[404] line ${String(i).padStart(4, '0')} ${'x'.repeat(80)}\n`; // 100 bytes
    for (let i = 0; i < 30; i++) {
      writer.append(line(i));
      await writer.flush();
    }
    t.mock.restoreAll();
    // Every line went to stderr instead, from the first rotation that failed on.
    assert.equal(stderr.length, 1, stderr.join(''));
    assert.match(stderr[0]!, /^svc: cannot rotate .*svc\.log: .*; it grows past logs\.maxBytes until it can be\n$/);
    const lines = (await Promise.all(['svc.log.1', 'svc.log'].map((name) => readFile(join(folder, name), 'utf8')))).join('').trimEnd().split('\n');
    assert.deepEqual(lines, Array.from({ length: 30 }, (_, i) => line(i).trimEnd()));
    assert.ok((await stat(join(folder, 'svc.log.2'))).isDirectory());

    await rm(join(folder, 'svc.log.2'), { recursive: true });
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    for (let i = 30; i < 40; i++) {
      writer.append(line(i));
      await writer.flush();
    }
    t.mock.restoreAll();
    assert.match(stderr.slice(1).join(''), /^svc: .*svc\.log is rotated again\n$/);
    assert.deepEqual(await logFiles(root), ['svc.log', 'svc.log.1', 'svc.log.2']);
  });

  it('does not rotate a file another process has just rotated', async () => {
    const root = await makeProject({});
    roots.push(root);
    const file = join(root, 'shoebox', 'logs', 'svc.log');
    const limits = { maxBytes: 1000, keep: 100 };
    const writers = [new LogWriter(file, limits), new LogWriter(file, limits)];
    const line = (i: number): string => `[404] line ${String(i).padStart(4, '0')} ${'x'.repeat(80)}\n`; // 100 bytes
    for (let i = 0; i < 200; i++) {
      const writer = writers[i % 2]!;
      writer.append(line(i));
      await writer.flush();
    }
    const files = await logFiles(root);
    const sizes = await Promise.all(files.map(async (name) => (await stat(join(root, 'shoebox', 'logs', name))).size));
    const lines = (await Promise.all(files.map((name) => readFile(join(root, 'shoebox', 'logs', name), 'utf8')))).join('').trimEnd().split('\n');
    assert.equal(new Set(lines).size, 200);
    // Each file holds at least what one process writes before it finds it full.
    assert.ok(sizes.slice(1).every((size) => size >= limits.maxBytes), `rotated files of ${sizes.join(', ')} bytes`);
  });
});
