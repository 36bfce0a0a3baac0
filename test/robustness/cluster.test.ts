// Issue 8: `svc serve --workers 2` serves from two processes with one set of metrics, one
// svc.log and one set of rate-limit counts: the primary adds up every worker's counts (no
// request lost or counted twice), is the only writer of the log (whole lines, never
// interleaved) and counts every rate-limited request, whichever worker it reached.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { eventually, svc } from '../support/cli.ts';
import { raw } from '../support/server.ts';
import { exchange } from './raw-http.ts';
import { exitCode, serveApp, type Served } from './support.ts';

const USERS = 300;
const MISSING = 100;
/** Long log lines: two writers interleaving would show as a broken line. */
const PADDING = 'p'.repeat(1500);

let app: Served;
before(async () => {
  app = await serveApp({}, ['--workers', '2']);
});
after(() => app?.close());

/** A fresh connection per request, so the cluster spreads them over the workers. */
const get = (target: string, headers: Record<string, string> = {}) => raw(app.svc.url, target, { headers: { connection: 'close', ...headers } });

async function inBatches(count: number, request: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += 25) {
    await Promise.all(Array.from({ length: Math.min(25, count - start) }, (_, k) => request(start + k)));
  }
}

async function hitsOf(pattern: string): Promise<number> {
  const { body } = await get('/svc/metrics', { accept: 'application/json' });
  const { routes } = JSON.parse(body) as { routes: Array<{ method: string; path: string; hits: number }> };
  return routes.find((route) => route.method === 'GET' && route.path === pattern)!.hits;
}

const usersHits = (): Promise<number> => hitsOf('/users/{id}');

describe('svc serve --workers 2', () => {
  it("answers what node's parser refuses in a worker with problem+json", async () => {
    const { response } = await exchange(app.svc.url, 'get / HTTP/1.1\r\nhost: a\r\n\r\n');
    assert.equal(response.status, 400);
    assert.equal(response.headers['content-type'], 'application/problem+json');
  });

  it('answers from two processes', async () => {
    const pids = new Set<number>();
    await inBatches(40, async () => pids.add((JSON.parse((await get('/pid')).body) as { pid: number }).pid));
    assert.equal(pids.size, 2);
  });

  it('holds a rate limit for the whole server, not per worker', async () => {
    // One after the other: the cluster then hands the connections to the workers in turn.
    const answers: Array<{ status: number; body: string }> = [];
    for (let i = 0; i < 20; i++) answers.push(await get('/limited'));
    const served = answers.filter((answer) => answer.status === 200);
    assert.equal(served.length, 5);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 15);
    // Both workers served some: counting in each, they would have let up to ten through.
    assert.equal(new Set(served.map((answer) => (JSON.parse(answer.body) as { pid: number }).pid)).size, 2);
  });

  it('lets a refused client in again once its window closes, on every worker', async () => {
    const statuses = async (count: number): Promise<number[]> => {
      const seen: number[] = [];
      for (let i = 0; i < count; i++) seen.push((await get('/limited-briefly')).status);
      return seen.sort();
    };
    assert.deepEqual(await statuses(6), [200, 200, 429, 429, 429, 429]);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.deepEqual(await statuses(6), [200, 200, 429, 429, 429, 429]);
  });

  it('never shows fewer hits than a scrape before it, whichever worker answers', async () => {
    // A scrape answered by each worker's own counts plus the other's last report went back
    // and forth between the two; Prometheus reads a counter that goes down as a restart.
    const seen: number[] = [];
    for (let round = 0; round < 30; round++) {
      await inBatches(6, () => get('/pid'));
      seen.push(await hitsOf('/pid'));
    }
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b), `scrapes went down: ${seen.join(' ')}`);
    assert.ok(seen.at(-1)! > seen[0]!);
  });

  it('lets a client in again when the clock is set back, on every worker', async () => {
    // Enough refusals that each worker remembers the client as over its limit.
    for (let i = 0; i < 12; i++) await get('/stepped');
    await writeFile(join(app.root, 'clock-offset'), String(-3_600_000)); // NTP steps the clock back an hour
    try {
      const answers: Array<{ status: number; retryAfter: string | undefined }> = [];
      for (let i = 0; i < 6; i++) {
        const { status, headers } = await get('/stepped');
        answers.push({ status, retryAfter: headers['retry-after'] as string | undefined });
      }
      assert.equal(answers[0]!.status, 200, JSON.stringify(answers));
      assert.ok(answers.every(({ retryAfter }) => retryAfter === undefined || Number(retryAfter) <= 60), JSON.stringify(answers));
    } finally {
      await rm(join(app.root, 'clock-offset'), { force: true });
    }
  });

  it('counts every request exactly once in the metrics endpoint of every worker, and in the saved file', async () => {
    await inBatches(USERS, async (i) => assert.equal((await get(`/users/${i}`)).status, 200));
    await inBatches(MISSING, async (i) => assert.equal((await get(`/missing/${i}/${PADDING}`)).status, 404));

    await eventually(async () => (await usersHits()) === USERS);
    // Every worker answers the same totals, and another round of reports adds nothing.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const answers = await Promise.all(Array.from({ length: 8 }, usersHits));
    assert.deepEqual(answers, Array(8).fill(USERS));

    const exited = exitCode(app.svc);
    app.svc.child.kill('SIGTERM');
    assert.equal(await exited, 0);
    const saved = JSON.parse(await readFile(join(app.root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ method: string; path: string; hits: number }> };
    assert.equal(saved.routes.find((route) => route.path === '/users/{id}')!.hits, USERS);
  });

  it('writes every worker log line whole, once, to the one svc.log', async () => {
    const text = await readFile(join(app.root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    assert.ok(text.endsWith('\n'));
    const all = text.slice(0, -1).split('\n');
    const limited = /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[429\] GET \/limited 429 from 127\.0\.0\.1 \(request [0-9a-f-]{36}\)$/;
    assert.equal(all.filter((text) => limited.test(text)).length, 15);
    const briefly = /\] \[429\] GET \/limited-briefly 429 from /;
    assert.equal(all.filter((text) => briefly.test(text)).length, 8);
    const clientError = /^\[[^\]]+\] \[400\] client error HPE_INVALID_METHOD from 127\.0\.0\.1 \(request [0-9a-f-]{36}\)$/;
    assert.equal(all.filter((text) => clientError.test(text)).length, 1);
    const stepped = /\] \[429\] GET \/stepped 429 from /;
    const lines = all.filter((text) => !limited.test(text) && !briefly.test(text) && !clientError.test(text) && !stepped.test(text));
    const line = new RegExp(`^\\[\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\] \\[404\\] GET /missing/(\\d+)/${PADDING} 404 from 127\\.0\\.0\\.1 \\(request [0-9a-f-]{36}\\)$`);
    const seen = lines.map((text) => Number(line.exec(text)?.[1] ?? NaN));
    assert.ok(seen.every(Number.isInteger), `malformed lines: ${lines.filter((text) => !line.test(text)).map((text) => text.slice(0, 120)).join('\n')}`);
    assert.deepEqual(seen.sort((a, b) => a - b), Array.from({ length: MISSING }, (_, i) => i));
  });

  it('refuses a bad --workers with exit code 2 and the help', () => {
    for (const bad of ['0', '1.5', 'many']) {
      const result = svc(app.root, ['serve', '--workers', bad]);
      assert.equal(result.status, 2, `--workers ${bad}`);
      assert.match(result.stderr, /--workers must be a whole number of at least 1, or "auto"/);
      assert.match(result.stdout + result.stderr, /Usage:/);
    }
    const most = 4 * availableParallelism();
    const many = svc(app.root, ['serve', '--workers', String(most + 1)]);
    assert.equal(many.status, 2);
    assert.match(many.stderr, new RegExp(`--workers may be at most ${most} here \\(4 per CPU\\), got ${most + 1}`));
  });
});
