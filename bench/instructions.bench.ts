// `npm run bench:instructions`: the instructions each server executes per request, as
// valgrind's callgrind counts them (user space, every thread of the process), for the
// HTTP bench's servers and routes. Requests per second and CPU time move with whatever
// else the machine does; an instruction count barely does, so this compares servers
// where the HTTP bench's ratios sit inside its noise. It is not time: a cache miss costs
// more than an instruction. Each server and route gets a fresh process under callgrind,
// a warm-up, then its counters zeroed, a counted load, and a dump.
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchTmp, generateProject, repoRoot } from './gen/project.ts';
import { compileServers } from './servers/compile.ts';
import { checkAnswers, HTTP_ROUTES, SERVER_NAMES, type BenchRoute, type Contender } from './support/http-routes.ts';
import { planCores, runLoad } from './support/load.ts';
import { fixed, machine, markdownTable, median, ratio, thousands, writeReadmeSection } from './support/report.ts';
import { measureOk, serverFlags, startServer } from './support/process.ts';

const WARMUP = Number(process.env.BENCH_INSTRUCTIONS_WARMUP ?? 20_000);
const REQUESTS = Number(process.env.BENCH_INSTRUCTIONS_REQUESTS ?? 20_000);
/**
 * Fresh processes per server and route, the median shown: when V8's optimising compiler
 * finishes with a function differs between processes, and one run of svc's placeholder
 * route once counted 12k more than the next.
 */
const ROUNDS = Number(process.env.BENCH_INSTRUCTIONS_ROUNDS ?? 1);
/** Express is left out unless named: under callgrind it takes minutes per route. */
const SERVERS = (process.env.BENCH_INSTRUCTIONS_SERVERS ?? 'bare,svc,fastify,hono').split(',').map((s) => s.trim()) as Exclude<Contender, 'baseline'>[];
const CONNECTIONS = 10;
const PIPELINING = 10;

if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) throw new Error('bench:instructions needs valgrind (Debian: apt-get install valgrind)');
const known = ['bare', 'svc', 'fastify', 'hono', 'express'];
for (const who of SERVERS) if (!known.includes(who)) throw new Error(`BENCH_INSTRUCTIONS_SERVERS: no server "${who}" (${known.join(', ')})`);

const cores = planCores();
const bin = join(repoRoot, 'bin', 'svc.js');
const project = await generateProject('http', 10);
await measureOk(process.execPath, [bin, 'build'], project.root);
const peerFiles = await compileServers(join(benchTmp, 'servers'));
const dumps = join(benchTmp, 'callgrind');
await rm(dumps, { recursive: true, force: true });
await mkdir(dumps, { recursive: true });

interface Count {
  /** Instructions per request, all threads. */
  total: number;
  /** Those of the main thread, where the server's JavaScript runs. */
  main: number;
}

/** Instructions per request of `who` on `route`, in a process of its own. */
async function count(who: (typeof SERVERS)[number], route: BenchRoute): Promise<Count> {
  const out = join(dumps, `${who}-${route.id}`);
  const callgrind = ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}.%p`];
  const server =
    who === 'svc'
      ? await startServer([bin, 'serve', '--port', '0'], project.root, {}, [...cores.server, ...callgrind])
      : await startServer([peerFiles[who]], repoRoot, {}, [...cores.server, ...callgrind]);
  try {
    await checkAnswers(SERVER_NAMES[who], server.url, [route]);
    const load = (requests: number) => runLoad({ url: server.url + route.path, connections: CONNECTIONS, pipelining: PIPELINING, requests }, cores.load);
    await load(WARMUP);
    control(server.child.pid!, '--zero');
    const counted = await load(REQUESTS);
    control(server.child.pid!, '--dump');
    if (counted.errors || counted.timeouts) throw new Error(`${SERVER_NAMES[who]} ${route.path}: ${counted.errors} errors, ${counted.timeouts} timeouts`);
    // The dump after a zero is the process's first numbered one; its `totals:` line is the Ir count.
    const file = `${out}.${server.child.pid}.1`;
    const totals = /^totals: (\d+)/m.exec(await readFile(file, 'utf8'));
    if (!totals) throw new Error(`no totals in the callgrind dump of ${SERVER_NAMES[who]} ${route.path}`);
    return { total: Number(totals[1]) / counted.requests.total, main: mainThread(file) / counted.requests.total };
  } finally {
    await server.stop();
  }
}

/**
 * The main thread's instructions: what callgrind_annotate lists under `(below main)`, the
 * frame every call of the main thread sits in. The rest is V8's helper threads (concurrent
 * marking and compiling) and libuv's pool, which run more or less often per request with
 * the machine's timing.
 */
function mainThread(dump: string): number {
  const annotated = spawnSync('callgrind_annotate', ['--threshold=90', dump], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = /^\s*([\d,]+) .*\(below main\)/m.exec(annotated.stdout);
  if (!line) throw new Error(`callgrind_annotate found no (below main) in ${dump}: ${annotated.stderr}`);
  return Number(line[1]!.replaceAll(',', ''));
}

function control(pid: number, command: '--zero' | '--dump'): void {
  const result = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`callgrind_control ${command} ${pid}: ${result.stderr}${result.stdout}`);
}

const samples = new Map<string, Count[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const route of HTTP_ROUTES) {
    for (const who of SERVERS) {
      const perRequest = await count(who, route);
      samples.set(`${who} ${route.id}`, [...(samples.get(`${who} ${route.id}`) ?? []), perRequest]);
      console.log(
        `round ${round + 1}/${ROUNDS} ${route.name.padEnd(17)} ${SERVER_NAMES[who].padEnd(20)} ` +
          `${thousands(perRequest.total).padStart(8)} instructions per request, ${thousands(perRequest.main)} on the main thread`,
      );
    }
  }
}
const load = loadavg()[0]!;

const at = (who: Contender, route: string, part: keyof Count): number => median((samples.get(`${who} ${route}`) ?? []).map((c) => c[part]));
const peers = SERVERS.filter((who) => who !== 'svc');
const ratios = (part: keyof Count, heading: string): string[] =>
  SERVERS.includes('svc') && peers.length > 0
    ? [
        '',
        heading,
        '',
        markdownTable(
          ['route', ...peers.map((peer) => `svc / ${SERVER_NAMES[peer]}`)],
          HTTP_ROUTES.map((r) => [r.name, ...peers.map((peer) => ratio(at(peer, r.id, part) / at('svc', r.id, part)))]),
          ['l', ...peers.map(() => 'r' as const)],
        ),
      ]
    : [];
const report = [
  `Instructions per request (valgrind callgrind, user space), each server and route in a fresh process${ROUNDS > 1 ? `, median of ${ROUNDS} rounds` : ', one round'}: ` +
    `${thousands(WARMUP)} requests of warm-up, then ${thousands(REQUESTS)} counted; autocannon -c ${CONNECTIONS} -p ${PIPELINING}. ` +
    `Machine: ${machine()}; ${cores.description}; ${serverFlags()}; load average ${fixed(load, 1)} at the end ` +
    `(a busy machine inflates counts a little: timers and the collector's helper threads run more often per request when the process runs slower).`,
  '',
  markdownTable(
    ['server', ...HTTP_ROUTES.map((r) => `${r.name}: all threads / main thread`)],
    SERVERS.map((who) => [SERVER_NAMES[who], ...HTTP_ROUTES.map((r) => `${thousands(at(who, r.id, 'total'))} / ${thousands(at(who, r.id, 'main'))}`)]),
    ['l', ...HTTP_ROUTES.map(() => 'r' as const)],
  ),
  ...ratios('total', 'Peer ÷ svc, all threads (above 1× means svc executes fewer instructions per request):'),
  ...ratios('main', "Peer ÷ svc, main thread (where the servers' JavaScript runs; the helper threads' share moves by a few thousand between runs of one server):"),
].join('\n');
console.log(`\n${report}`);
if (process.env.BENCH_INSTRUCTIONS_SERVERS === undefined) await writeReadmeSection('instructions', report);
