// `npm run bench:startup`: time from process start to the first 200 response, for
// `svc serve` on a built 1,000-route project and for the peers registering the same
// 1,000 routes (bare node:http, which routes nothing, is the floor). Servers start one
// at a time, in a rotating order; the table shows medians.
// Target: svc faster than Fastify.
import { join } from 'node:path';
import { benchTmp, generateProject, repoRoot } from './gen/project.ts';
import { compileServers, type Peer } from './servers/compile.ts';
import { STATIC_PATH } from './servers/payload.ts';
import { machine, markdownTable, median, ratio, fixed, writeReadmeSection } from './support/report.ts';
import { measureOk, serverFlags, startServer } from './support/process.ts';

const ROUTES = 1000;
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);

const bin = join(repoRoot, 'bin', 'svc.js');
const project = await generateProject(`routes-${ROUTES}`, ROUTES);
await measureOk(process.execPath, [bin, 'build'], project.root);
const peerFiles = await compileServers(join(benchTmp, 'servers'));

type Contender = 'svc' | Peer;
const NAMES: Record<Contender, string> = {
  svc: 'svc serve',
  bare: 'node:http (bare, no routes)',
  fastify: 'Fastify',
  hono: 'Hono (node-server)',
  express: 'Express',
};
const contenders: Contender[] = ['svc', 'fastify', 'hono', 'express', 'bare'];
const args = (who: Contender): string[] =>
  who === 'svc' ? [bin, 'serve', '--port', '0'] : who === 'bare' ? [peerFiles.bare] : [peerFiles[who], '--routes', project.routeList];

/** Spawn → listening line → one GET answered 200; milliseconds for both steps. */
async function firstResponse(who: Contender): Promise<{ ready: number; first: number }> {
  const started = performance.now();
  const server = await startServer(args(who), who === 'svc' ? project.root : repoRoot);
  try {
    const res = await fetch(server.url + STATIC_PATH);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${NAMES[who]} answered ${STATIC_PATH} with ${res.status}`);
    return { ready: server.readyMs, first: performance.now() - started };
  } finally {
    await server.stop();
  }
}

const times = new Map<Contender, number[]>(contenders.map((who) => [who, []]));
for (let run = 0; run < RUNS; run++) {
  for (let i = 0; i < contenders.length; i++) {
    const who = contenders[(i + run) % contenders.length]!;
    const { first } = await firstResponse(who);
    times.get(who)!.push(first);
    console.log(`run ${run + 1}/${RUNS} ${NAMES[who].padEnd(28)} ${fixed(first)} ms`);
  }
}

const med = (who: Contender): number => median(times.get(who)!);
const table = markdownTable(
  ['server', 'routes', 'median ms to first 200', 'min ms', 'max ms', 'svc / server'],
  contenders.map((who) => {
    const all = times.get(who)!;
    return [NAMES[who], who === 'bare' ? '2 (by hand)' : String(project.routeCount), fixed(med(who)), fixed(Math.min(...all)), fixed(Math.max(...all)), ratio(med('svc') / med(who))];
  }),
  ['l', 'r', 'r', 'r', 'r', 'r'],
);
const report = [
  `Process spawn to the first 200 on \`GET ${STATIC_PATH}\`, ${RUNS} runs each (rotating order), the ${project.routeCount}-route generated project ` +
    `(svc: \`node bin/svc.js serve\` on its build; peers: the same routes from routes.json, run as esbuild-bundled JavaScript). ` +
    `Machine: ${machine()}; ${serverFlags()}; shared with other work.`,
  '',
  table,
].join('\n');
console.log(`\n${report}`);
await writeReadmeSection('startup', report);
