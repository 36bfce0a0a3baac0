// `npm run bench:knots`: what the built-in knots cost over HTTP. One `svc serve` process
// (a real build) answers four routes; autocannon measures each in interleaved rounds:
//   plain      a closure returning a short string, no middleware
//   pass       the same closure behind a middleware that only calls next(): the
//              pipeline's own price for having middleware at all
//   rate limit the same closure behind RateLimitKnots with a limit it never reaches
//   1 ms work  a closure that computes for 1 ms (CPU), no middleware
//   cache HIT  the same 1 ms closure behind ShoeCacheKnots, its entry already stored
// Targets: rate limit within 5% of plain; a cache HIT faster than the 1 ms handler.
// Then `svc serve --workers 2` on the same build, plain against rate limit only: there
// the primary keeps the counts, one IPC round trip per event-loop turn of each worker.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import type { Context } from '../runtime/context.ts';
import type { Outgoing } from '../runtime/http/outgoing.ts';
import { RateLimitKnots } from '../runtime/knots/rate-limit.ts';
import { benchTmp, repoRoot } from './gen/project.ts';
import { cpuSeconds, planCores, runLoad } from './support/load.ts';
import { measureOk, serverFlags, startServer } from './support/process.ts';
import { fixed, machine, markdownTable, median, ratio, thousands, writeReadmeSection } from './support/report.ts';

// As in the HTTP bench (support/load.ts): the server on one CPU, autocannon, a process of
// its own, on the others, where this process moves too.
const cores = planCores();

// Many short interleaved rounds: each ratio is taken within a round, then the median
// over rounds, so load from elsewhere on the machine shifts both sides of a ratio alike.
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SECONDS = Number(process.env.SECONDS ?? 2);
const CONNECTIONS = 16;

const files: Record<string, string> = {
  'routes/bench.ts': `import { RateLimitKnots, ShoeCacheKnots, type Context, type Next, type Router } from 'svc';

class Pass {
  handle(_ctx: Context, next: Next) {
    return next();
  }
}

/** About 1 ms of CPU work, standing for a handler worth caching. */
function work(): { checksum: number } {
  const end = performance.now() + 1;
  let checksum = 0;
  while (performance.now() < end) checksum = (checksum * 31 + 7) | 0;
  return { checksum: checksum & 1 };
}

export default (router: Router) => {
  router.get('/plain', () => 'hello');
  router.group({ middleware: [Pass] }, (r) => r.get('/pass', () => 'hello'));
  router.group({ middleware: [[RateLimitKnots, [1000000000, 60]]] }, (r) => r.get('/limited', () => 'hello'));
  router.get('/work', work);
  router.group({ middleware: [[ShoeCacheKnots, [3600]]] }, (r) => r.get('/cached', work));
};
`,
};

const targets = [
  { name: 'plain', path: '/plain' },
  { name: 'pass-through middleware', path: '/pass' },
  { name: 'rate limit (limit never reached)', path: '/limited' },
  { name: '1 ms handler', path: '/work' },
  { name: 'cache HIT of the 1 ms handler', path: '/cached' },
] as const;

async function requestsPerSecond(url: string, seconds = SECONDS): Promise<{ perSecond: number; total: number }> {
  const result = await runLoad({ url, connections: CONNECTIONS, pipelining: 1, seconds }, cores.load);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { perSecond: result.requests.total / result.duration, total: result.requests.total };
}

/**
 * The knot's own cost, away from the HTTP noise: ns per `handle` call (1,024 client
 * addresses, the chain's `next` already resolved), awaited as the pipeline does.
 */
async function rateLimitNanoseconds(): Promise<number> {
  const knot = new RateLimitKnots(1_000_000_000, 60);
  const clients = Array.from({ length: 1024 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}` }) as Context);
  const next = (): Promise<Outgoing> => Promise.resolve({ status: 200, headers: {}, body: 'hello' });
  const calls = 500_000;
  for (let i = 0; i < calls; i++) await knot.handle(clients[i & 1023]!, next); // warm-up
  const started = performance.now();
  for (let i = 0; i < calls; i++) await knot.handle(clients[i & 1023]!, next);
  return ((performance.now() - started) * 1e6) / calls;
}

const root = join(benchTmp, 'knots');
await rm(root, { recursive: true, force: true });
for (const [path, content] of Object.entries(files)) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}
const svcBin = join(repoRoot, 'bin', 'svc.js');
await measureOk(process.execPath, [svcBin, 'build'], root);
const server = await startServer([svcBin, 'serve', '--port', '0'], root, {}, cores.server);
try {
  const warm = await fetch(`${server.url}/cached`);
  await warm.arrayBuffer();
  const check = await fetch(`${server.url}/cached`);
  await check.arrayBuffer();
  if (check.headers.get('x-cache') !== 'HIT') throw new Error(`/cached is not served from the cache (X-Cache: ${check.headers.get('x-cache')})`);

  const samples = await rounds(server.url, targets, server.child.pid);
  const versus = (path: string, base: string): number => ratioOf(samples.rps, path, base);
  const cpuVersus = (path: string, base: string): number => ratioOf(samples.cpu, path, base);
  const rows = targets.map((t) => [
    t.name,
    `\`${t.path}\``,
    thousands(median(samples.rps.get(t.path)!)),
    ratio(versus(t.path, '/plain')),
    fixed(median(samples.cpu.get(t.path)!), 1),
    ratio(cpuVersus(t.path, '/plain')),
  ]);
  const limitCost = 1 - versus('/limited', '/plain');
  const knotOnlyCost = 1 - versus('/limited', '/pass');
  const limitCpuCost = cpuVersus('/limited', '/plain') - 1;
  const knotOnlyCpuCost = cpuVersus('/limited', '/pass') - 1;
  const cacheGain = versus('/cached', '/work');
  const knotNs = await rateLimitNanoseconds();
  const plainCpuNs = median(samples.cpu.get('/plain')!) * 1000;
  const text = [
    `Median requests/s and server CPU µs per request (user + system of the \`svc serve\` process) over ${ROUNDS} interleaved rounds of ${SECONDS} s, autocannon with ${CONNECTIONS} connections against one \`svc serve\` process; ratios are per round, then the median (CPU × plain above 1× costs more than plain). Machine: ${machine()}; ${cores.description}; ${serverFlags()}; load average ${fixed(loadavg()[0]!, 1)} when the rounds ended (other work shares it).`,
    '',
    markdownTable(['route', 'path', 'req/s', '× plain', 'CPU µs/req', 'CPU × plain'], rows, ['l', 'l', 'r', 'r', 'r', 'r']),
    '',
    `- Rate limit cost: ${fixed(limitCost * 100, 1)}% of the plain route's throughput (target: under 5%), ${fixed(knotOnlyCost * 100, 1)}% against the pass-through middleware, i.e. the knot's own share. In server CPU per request: ${fixed(limitCpuCost * 100, 1)}% over plain, ${fixed(knotOnlyCpuCost * 100, 1)}% over the pass-through middleware. In process, one \`RateLimitKnots.handle\` call takes ${fixed(knotNs)} ns, ${fixed((knotNs / plainCpuNs) * 100, 2)}% of a plain request's ${fixed(plainCpuNs / 1000)} µs of server CPU here.`,
    `- Cache HIT: ${ratio(cacheGain)} the throughput of the 1 ms handler it replaces (target: above 1×).`,
    await acrossWorkers(),
  ].join('\n');
  console.log(`\n${text}`);
  await writeReadmeSection('knots', text);
} finally {
  await server.stop();
}

interface Samples {
  /** Requests per second, by path, a sample per round. */
  rps: Map<string, number[]>;
  /** The server process's CPU µs per request (user + system), by path; empty when not measured. */
  cpu: Map<string, number[]>;
}

/**
 * Interleaved rounds over `list` after a warm-up. With `pid`, the server's CPU time per
 * request too: with 16 connections and no pipelining the server is not always busy, so
 * throughput also holds the round trips and autocannon's own parsing (of the knot's
 * headers too), while CPU per request is what the server spends alone.
 */
async function rounds(url: string, list: ReadonlyArray<{ name: string; path: string }>, pid?: number): Promise<Samples> {
  for (const target of list) await requestsPerSecond(`${url}${target.path}`, 1); // JIT warm-up, not recorded
  const samples: Samples = { rps: new Map(list.map((t) => [t.path, []])), cpu: new Map(pid === undefined ? [] : list.map((t) => [t.path, []])) };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another route, so no route always follows the same one.
    for (const target of [...list.slice(round % list.length), ...list.slice(0, round % list.length)]) {
      const before = pid === undefined ? 0 : cpuSeconds(pid);
      const { perSecond, total } = await requestsPerSecond(`${url}${target.path}`);
      samples.rps.get(target.path)!.push(perSecond);
      let line = `round ${round + 1}/${ROUNDS} ${target.name}: ${thousands(perSecond)} req/s`;
      if (pid !== undefined) {
        const cpu = ((cpuSeconds(pid) - before) * 1e6) / total;
        samples.cpu.get(target.path)!.push(cpu);
        line += `, CPU ${fixed(cpu)} µs/req`;
      }
      console.log(line);
    }
  }
  return samples;
}

/** Median over rounds of `path`'s throughput divided by `base`'s in the same round. */
function ratioOf(samples: Map<string, number[]>, path: string, base: string): number {
  return median(samples.get(path)!.map((value, round) => value / samples.get(base)![round]!));
}

/** The report line for plain against rate limit under `svc serve --workers 2`. */
async function acrossWorkers(): Promise<string> {
  const cluster = await startServer([svcBin, 'serve', '--port', '0', '--workers', '2'], root, {}, cores.server);
  try {
    const { rps: samples } = await rounds(cluster.url, targets.filter((t) => t.path === '/plain' || t.path === '/limited'));
    return (
      `- Under \`svc serve --workers 2\`, where the primary keeps the rate-limit counts for every worker: plain ${thousands(median(samples.get('/plain')!))} req/s, ` +
      `rate limit ${thousands(median(samples.get('/limited')!))} req/s, ${ratio(ratioOf(samples, '/limited', '/plain'))} plain (same rounds, the primary and both workers on the server's CPU).`
    );
  } finally {
    await cluster.stop();
  }
}
