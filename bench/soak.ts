// `npm run bench:soak` (not CI): the demo application under steady load for a minute —
// autocannon with 100 connections over a mix of its routes against one `svc serve` —
// while the server's resident memory is sampled every second. It passes when no request
// failed and RSS grew less than 10% from just after the warm-up to the end, and writes
// its numbers into bench/README.md ("Soak").
//
//   npm run bench:soak -- [--duration 60] [--warmup 10] [--connections 100] [--workers 1]
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { machine, median, writeReadmeSection } from './support/report.ts';
import { measure, startServer } from './support/process.ts';

interface SoakRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Histogram {
  average: number;
  p50: number;
  p99: number;
  max: number;
}

interface SoakResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
}

// autocannon ships no types: only what this script passes and reads is declared.
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: SoakRequest[];
}) => Promise<SoakResult>;

/** The demo's routes that answer 2xx without a database: every non-2xx is a failure. */
const REQUESTS: SoakRequest[] = [
  { path: '/' },
  { path: '/api/users' },
  { path: '/api/users/1' },
  { path: '/api/hello/you?greeting=hi' },
  { path: '/api/sorted/desc' },
  { path: '/api/slow-report' }, // ShoeCacheKnots: read from shoebox/cache/ after the first
  { path: '/robots.txt' },
  { path: '/empty' },
  { method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: '{"soak":true,"items":[1,2,3]}' },
];

const MAX_GROWTH = 0.1;
/** Seconds of samples at each end of the run whose medians are compared (GC makes single samples jumpy). */
const WINDOW_S = 10;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    connections: { type: 'string', default: '100' },
    workers: { type: 'string', default: '1' },
  },
});
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const workers = values.workers!;

const root = fileURLToPath(new URL('..', import.meta.url));
const svc = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

/** Resident set size of `pid` and its descendants (the workers of `--workers N`), in KiB. */
async function treeRssKb(pid: number): Promise<number> {
  const { stdout } = await promisify(execFile)('ps', ['-A', '-o', 'pid=,ppid=,rss=']);
  const rows = stdout.trim().split('\n').map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of rows) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  return rows.filter(([p]) => tree.has(p)).reduce((sum, [, , rss]) => sum + rss, 0);
}

const built = await measure(process.execPath, [svc, 'build'], root);
if (built.status !== 0) throw new Error(`svc build failed:\n${built.output}`);
const server = await startServer([svc, 'serve', '--port', '0', '--workers', workers], root);
const pid = server.child.pid!;
console.log(`soak: ${server.url}, ${warmup} s warm-up, then ${duration} s at ${connections} connections`);

const warm = await autocannon({ url: server.url, connections, duration: warmup, requests: REQUESTS });
const samples: Array<{ at: number; kb: number }> = [];
const started = performance.now();
const sampler = setInterval(() => void treeRssKb(pid).then((kb) => samples.push({ at: (performance.now() - started) / 1000, kb })), 1000);
samples.push({ at: 0, kb: await treeRssKb(pid) });
const result = await autocannon({ url: server.url, connections, duration, requests: REQUESTS });
clearInterval(sampler);
samples.push({ at: (performance.now() - started) / 1000, kb: await treeRssKb(pid) });

const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
server.child.kill('SIGTERM');
const exitCode = await exited;

const first = median(samples.filter((s) => s.at <= WINDOW_S).map((s) => s.kb));
const last = median(samples.filter((s) => s.at >= samples.at(-1)!.at - WINDOW_S).map((s) => s.kb));
const growth = last / first - 1;
const peak = Math.max(...samples.map((s) => s.kb));
const failures = result.errors + result.timeouts + result.non2xx + result.resets + warm.errors + warm.non2xx;
const passed = failures === 0 && growth < MAX_GROWTH && exitCode === 0;

const mb = (kb: number): string => (kb / 1024).toFixed(1);
const report = [
  `${duration} s of autocannon at ${connections} connections (after a ${warmup} s warm-up) against \`svc serve${workers === '1' ? '' : ` --workers ${workers}`}\` of the demo, cycling through ${REQUESTS.length} routes (${REQUESTS.map((r) => `${r.method ?? 'GET'} ${r.path.split('?')[0]}`).join(', ')}). RSS of the server process${workers === '1' ? '' : 'es'} sampled every second; growth compares the medians of the first and last ${WINDOW_S} s. Machine: ${machine()}.`,
  '',
  '| requests | req/s (mean) | latency p50 / p99 / max (ms) | errors + timeouts + non-2xx | RSS after warm-up | RSS at end | peak | growth | SIGTERM exit |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  `| ${result.requests.total.toLocaleString('en-US')} | ${Math.round(result.requests.average).toLocaleString('en-US')} | ${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} | ${failures} | ${mb(first)} MiB | ${mb(last)} MiB | ${mb(peak)} MiB | ${(growth * 100).toFixed(1)}% | ${exitCode} |`,
  '',
  `Result: **${passed ? 'pass' : 'FAIL'}** (no failed request, growth under ${MAX_GROWTH * 100}%, clean exit).`,
].join('\n');
console.log(report);
await writeReadmeSection('soak', report);
process.exitCode = passed ? 0 : 1;
