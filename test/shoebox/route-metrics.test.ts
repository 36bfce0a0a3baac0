// RouteMetrics on a real shoebox/metrics/ folder: counts by method and pattern, handed
// from one build's counters to the next (svc tread) without losing any.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ManifestRoute } from '../../runtime/manifest.ts';
import { RouteMetrics } from '../../runtime/shoebox/metrics/route-metrics.ts';
import { makeProject, removeProject } from '../support/project.ts';

const route = (id: number, method: string, pattern: string, builtin = false): ManifestRoute => ({
  id,
  method,
  pattern,
  params: [],
  handler: builtin ? { kind: 'builtin', name: 'health' } : { kind: 'closure' },
  middleware: [],
  source: builtin ? 'svc.json:1:1' : `routes/api.ts:${id + 1}:3`,
});

const hitsOf = (metrics: RouteMetrics) => Object.fromEntries(metrics.stats().map((s) => [`${s.method} ${s.path}`, s.hits]));

describe('RouteMetrics', () => {
  let root: string;
  before(async () => {
    root = await makeProject({});
  });
  after(() => removeProject(root));

  it('counts application routes only, and a rebuild that renumbers them takes the counts over', async () => {
    const first = await RouteMetrics.open(root, [route(0, 'GET', '/a'), route(1, 'POST', '/b'), route(2, 'GET', '/svc/health', true)]);
    first.record(0, 2);
    first.record(0, 4);
    first.record(1, 1);
    first.record(2, 1); // a built-in endpoint
    assert.deepEqual(hitsOf(first), { 'GET /a': 2, 'POST /b': 1 });
    assert.deepEqual(first.stats()[0], { id: 0, method: 'GET', path: '/a', hits: 2, totalMs: 6, avgMs: 3 });

    // The rebuild is opened before the previous build is closed, as `svc tread` does.
    const second = await RouteMetrics.open(root, [route(0, 'GET', '/new'), route(1, 'GET', '/a'), route(2, 'POST', '/b')]);
    first.record(0, 1); // a late request of the old build: handed to the new build when the old one closes
    assert.deepEqual(hitsOf(second), { 'GET /new': 0, 'GET /a': 2, 'POST /b': 1 });
    await first.close();
    second.record(1, 3);
    assert.deepEqual(hitsOf(second), { 'GET /new': 0, 'GET /a': 4, 'POST /b': 1 });
    await second.close();

    const saved = JSON.parse(await readFile(join(root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ path: string; hits: number; totalMs: number }> };
    assert.deepEqual(
      saved.routes.map((r) => [r.path, r.hits, r.totalMs]),
      [
        ['/new', 0, 0],
        ['/a', 4, 10],
        ['/b', 1, 1],
      ],
    );
    const reopened = await RouteMetrics.open(root, [route(0, 'GET', '/a')]);
    assert.deepEqual(hitsOf(reopened), { 'GET /a': 4 });
    await reopened.close();
  });

  it('keeps the counts of a route a build lacks, unshown, until a build has it again', async (t) => {
    const root = await makeProject({});
    t.after(() => removeProject(root));
    const savedHits = async () => {
      const text = await readFile(join(root, 'shoebox', 'metrics', 'routes.json'), 'utf8');
      return (JSON.parse(text) as { routes: Array<{ method: string; path: string; hits: number }> }).routes.map((r) => `${r.method} ${r.path} ${r.hits}`);
    };
    const full = [route(0, 'GET', '/a'), route(1, 'GET', '/gone'), route(2, 'GET', '/never')];
    const first = await RouteMetrics.open(root, full);
    first.record(0, 1);
    first.record(1, 1);
    first.record(1, 1);
    // A rebuild without /gone (its route file moved away for a moment), opened before the old build closes, as svc tread does.
    const without = await RouteMetrics.open(root, [route(0, 'GET', '/a')]);
    first.record(1, 1); // a late request of the old build to the route the new one lacks
    await first.close();
    assert.deepEqual(hitsOf(without), { 'GET /a': 1 });
    await without.save();
    assert.deepEqual(await savedHits(), ['GET /a 1', 'GET /gone 3'], 'written back unshown; an uncounted route leaves nothing');
    await without.close();

    // A restart, still without it, then a build that has it again.
    const restarted = await RouteMetrics.open(root, [route(0, 'GET', '/a')]);
    await restarted.close();
    const back = await RouteMetrics.open(root, full);
    assert.deepEqual(hitsOf(back), { 'GET /a': 1, 'GET /gone': 3, 'GET /never': 0 });
    back.record(1, 1);
    await back.close();
    assert.deepEqual(await savedHits(), ['GET /a 1', 'GET /gone 4', 'GET /never 0'], 'counted once, not also as a leftover');
  });

  // A save is tried every 10 s: a folder in the file's place (or one the server may not
  // write) printed the same line every 10 s for as long as the server ran.
  it('leaves alone, and counts anew beside, a file a later svc wrote in a format it does not know', async (t) => {
    const root = await makeProject({});
    t.after(() => removeProject(root));
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    const later = `${JSON.stringify({ version: 2, routes: [{ method: 'GET', path: '/a', hits: 7, totalMs: 3, p99Ms: 1 }] })}\n`;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, later);
    const stderr: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    const metrics = await RouteMetrics.open(root, [route(0, 'GET', '/a')]);
    metrics.record(0, 1);
    await metrics.save();
    assert.deepEqual(hitsOf(metrics), { 'GET /a': 1 });
    assert.deepEqual((await metrics.current()).map((stat) => stat.hits), [1]);
    await metrics.close();
    t.mock.restoreAll();
    // Rewritten as format 1 it lost what format 2 keeps (here p99Ms), and a rollback's counts went in.
    assert.equal(await readFile(file, 'utf8'), later);
    const said = stderr.filter((line) => line.includes('routes.json'));
    assert.equal(said.length, 1, stderr.join(''));
    assert.match(said[0]!, /cannot write .*routes\.json: it is in format 2, written by a later svc \(this one writes format 1\), and is left as it is/);
  });

  it('says once that the counts cannot be saved, and once that they are again', async (t) => {
    const root = await makeProject({});
    t.after(() => removeProject(root));
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    await mkdir(join(file, 'in-the-way'), { recursive: true });
    const stderr: string[] = [];
    t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
    const metrics = await RouteMetrics.open(root, [route(0, 'GET', '/a')]);
    for (let i = 0; i < 3; i++) {
      metrics.record(0, 1);
      await metrics.save();
    }
    const failures = stderr.filter((line) => line.includes('cannot write'));
    assert.equal(failures.length, 1, stderr.join(''));
    assert.match(failures[0]!, /^svc: cannot write .*routes\.json: EISDIR.*; said once, tried again at each save\n$/);
    // It was said unreadable at each save too, in svc.log as well: a line every 10 s and at each scrape.
    assert.equal(stderr.filter((line) => line.includes('is unreadable')).length, 1, stderr.join(''));

    await rm(file, { recursive: true });
    metrics.record(0, 1);
    await metrics.save();
    assert.match(stderr.at(-1)!, /^svc: .*routes\.json is written again\n$/);
    t.mock.restoreAll();
    await metrics.close();
    assert.equal(JSON.parse(await readFile(file, 'utf8')).routes[0].hits, 4);
  });
});
