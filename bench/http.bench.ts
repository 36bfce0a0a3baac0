// `npm run bench:http`: requests per second and p99 latency of svc against bare
// node:http (the ceiling), Fastify, Hono on @hono/node-server and Express, with
// autocannon (-c 100 -p 10, a warm-up round then a measured round) running in this
// process and each server in its own child, one server at a time. svc is `svc serve`
// on the compiled bundle of a generated project (IP rules and metrics on).
// Targets: svc ≥ 95% of bare node:http and ahead of Fastify on the placeholder route.
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchTmp, generateProject, repoRoot } from './gen/project.ts';
import { compileServers, type Peer } from './servers/compile.ts';
import { MISSING_PATH, PARAMS_PATH, payload, STATIC_PATH } from './servers/payload.ts';
import { machine, markdownTable, median, ratio, thousands, fixed, writeReadmeSection } from './support/report.ts';
import { measureOk, startServer, type RunningServer } from './support/process.ts';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_HTTP_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 1);
/**
 * Another svc checkout (`git archive HEAD | tar -x -C /tmp/base`, its node_modules linked)
 * that builds and serves the same project as one more server: a before/after in one run.
 */
const BASELINE = process.env.BENCH_HTTP_BASELINE;
const CONNECTIONS = 100;
const PIPELINING = 10;

const ROUTES = [
  { name: 'static JSON', path: STATIC_PATH, status: 200, body: payload },
  { name: 'two placeholders', path: PARAMS_PATH, status: 200, body: { id: '42', postId: '7' } },
  { name: '404', path: MISSING_PATH, status: 404, body: undefined },
] as const;

const bin = join(repoRoot, 'bin', 'svc.js');
const project = await generateProject('http', 10);
await measureOk(process.execPath, [bin, 'build'], project.root);
const baselineBin = BASELINE && join(BASELINE, 'bin', 'svc.js');
const baselineProject = baselineBin ? await generateProject('http-baseline', 10) : undefined;
if (baselineBin && baselineProject) await measureOk(process.execPath, [baselineBin, 'build'], baselineProject.root);
const peerFiles = await compileServers(join(benchTmp, 'servers'));

type Contender = 'svc' | 'baseline' | Peer;
const NAMES: Record<Contender, string> = {
  svc: 'svc serve',
  baseline: 'svc serve (baseline)',
  bare: 'node:http (bare)',
  fastify: 'Fastify',
  hono: 'Hono (node-server)',
  express: 'Express',
};
const contenders: Contender[] = ['bare', 'svc', ...(BASELINE ? (['baseline'] as const) : []), 'fastify', 'hono', 'express'];
const start = (who: Contender): Promise<RunningServer> => {
  if (who === 'svc') return startServer([bin, 'serve', '--port', '0'], project.root);
  if (who === 'baseline') return startServer([baselineBin!, 'serve', '--port', '0'], baselineProject!.root);
  return startServer([peerFiles[who]], repoRoot);
};

/** Every server must answer the same thing, or the numbers compare different work. */
async function checkAnswers(who: Contender, url: string): Promise<void> {
  for (const route of ROUTES) {
    const res = await fetch(url + route.path);
    const text = await res.text();
    if (res.status !== route.status) throw new Error(`${NAMES[who]} answered ${route.path} with ${res.status}: ${text}`);
    if (route.body !== undefined && text !== JSON.stringify(route.body)) throw new Error(`${NAMES[who]} answered ${route.path} with ${text}`);
  }
}

interface Sample {
  rps: number;
  p99: number;
}
const samples = new Map<string, Sample[]>();
const key = (who: Contender, route: string): string => `${who} ${route}`;

for (let round = 0; round < ROUNDS; round++) {
  // A different order each round, so slow drift on a shared machine does not favour one server.
  const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
  for (const who of order) {
    const server = await start(who);
    try {
      await checkAnswers(who, server.url);
      for (const route of ROUTES) {
        const url = server.url + route.path;
        await autocannon({ url, connections: CONNECTIONS, pipelining: PIPELINING, duration: WARMUP });
        const result = await autocannon({ url, connections: CONNECTIONS, pipelining: PIPELINING, duration: SECONDS });
        if (result.errors || result.timeouts) throw new Error(`${NAMES[who]} ${route.path}: ${result.errors} errors, ${result.timeouts} timeouts`);
        const sample = { rps: result.requests.average, p99: result.latency.p99 };
        console.log(`round ${round + 1}/${ROUNDS} ${NAMES[who].padEnd(20)} ${route.name.padEnd(17)} ${thousands(sample.rps).padStart(8)} req/s  p99 ${sample.p99} ms`);
        samples.set(key(who, route.name), [...(samples.get(key(who, route.name)) ?? []), sample]);
      }
    } finally {
      await server.stop();
    }
  }
}

const rps = (who: Contender, route: string): number => median((samples.get(key(who, route)) ?? []).map((s) => s.rps));
const p99 = (who: Contender, route: string): number => median((samples.get(key(who, route)) ?? []).map((s) => s.p99));

const results = markdownTable(
  ['server', ...ROUTES.flatMap((r) => [`${r.name} req/s`, 'p99 ms'])],
  contenders.map((who) => [NAMES[who], ...ROUTES.flatMap((r) => [thousands(rps(who, r.name)), fixed(p99(who, r.name))])]),
  ['l', ...ROUTES.flatMap(() => ['r', 'r'] as const)],
);
const baselineColumns = BASELINE ? ['baseline / bare node:http', 'svc / baseline'] : [];
const ratios = markdownTable(
  ['route', 'svc / bare node:http', 'svc / Fastify', 'svc / Hono', 'svc / Express', ...baselineColumns],
  ROUTES.map((r) => [
    r.name,
    ...(['bare', 'fastify', 'hono', 'express'] as const).map((peer) => ratio(rps('svc', r.name) / rps(peer, r.name))),
    ...(BASELINE ? [ratio(rps('baseline', r.name) / rps('bare', r.name)), ratio(rps('svc', r.name) / rps('baseline', r.name))] : []),
  ]),
  ['l', 'r', 'r', 'r', 'r', ...baselineColumns.map(() => 'r' as const)],
);
const report = [
  `autocannon -c ${CONNECTIONS} -p ${PIPELINING}, ${WARMUP} s warm-up then ${SECONDS} s measured, per server and route; ` +
    `${ROUNDS === 1 ? 'one round' : `median of ${ROUNDS} rounds`}. Machine: ${machine()}; shared with other work, so read the ratios.`,
  '',
  results,
  '',
  ratios,
].join('\n');
console.log(`\n${report}`);
await writeReadmeSection('http', report);
