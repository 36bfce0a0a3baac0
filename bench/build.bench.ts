// `npm run bench:build`: `svc build` on generated projects of 100, 1,000 and 10,000
// routes (cold: no .svc/), beside `tsc --noEmit` and a bare esbuild bundle of the same
// tree; the warm rebuild in `svc tread` after one route-file edit and after one
// controller edit (from the write to the change answering); and, on 1,000 routes, the
// build with and without OpenAPI.
// Each command is a child process: wall time, CPU time (user + system) and peak RSS.
// Targets: 1,000 routes cold under 3 s; a rebuild under 300 ms; growth close to linear;
// OpenAPI within 1.5× of the build without it.
import { rm, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { benchTmp, generateProject, repoRoot, type GeneratedProject } from './gen/project.ts';
import { fixed, machine, markdownTable, median, ratio, writeReadmeSection } from './support/report.ts';
import { measureOk, startServer, type Measured } from './support/process.ts';

/** A subset (`100,1000`) for a quick look; the README keeps the table of all three then. */
const ONLY_SIZES = process.env.BENCH_BUILD_SIZES;
const SIZES = (ONLY_SIZES ?? '100,1000,10000').split(',').map(Number);
const REBUILDS = Number(process.env.BENCH_BUILD_REBUILDS ?? 5);
const OPENAPI_RUNS = Number(process.env.BENCH_BUILD_OPENAPI_RUNS ?? 3);

const bin = join(repoRoot, 'bin', 'svc.js');
const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
const esbuild = join(repoRoot, 'node_modules', '.bin', 'esbuild');
const buildOnce = join(repoRoot, 'bench', 'gen', 'build-once.ts');

const coldBuild = async (project: GeneratedProject): Promise<Measured> => {
  await rm(join(project.root, '.svc'), { recursive: true, force: true });
  return measureOk(process.execPath, [bin, 'build'], project.root);
};

const bareEsbuild = (project: GeneratedProject): Promise<Measured> =>
  measureOk(
    esbuild,
    [...project.routeFiles, '--bundle', '--platform=node', '--format=esm', '--packages=external', `--outdir=${join(benchTmp, 'esbuild-out')}`, '--log-level=warning'],
    project.root,
  );

interface Rebuild {
  /** Write → the edited route answering 200. */
  answerMs: number;
  /** What tread itself logs: "built N routes in X ms (analyse A, emit E, …)". */
  loggedMs: number;
  phases: Record<string, number>;
}

const LOGGED = /built \d+ routes in (\d+) ms \(([^)]*)\)/;

function parseLogged(text: string): Pick<Rebuild, 'loggedMs' | 'phases'> {
  const [, total, phases] = LOGGED.exec(text)!;
  const entries = phases!.split(', ').map((entry) => {
    const at = entry.lastIndexOf(' ');
    return [entry.slice(0, at), Number(entry.slice(at + 1))] as const;
  });
  return { loggedMs: Number(total), phases: Object.fromEntries(entries) };
}

/** An edit made back and forth in `svc tread`: it swaps `swap[0]` and `swap[1]` in `file`. */
interface Edit {
  /** How the report names it. */
  name: string;
  file: string;
  swap: [string, string];
  /** What shows the build with `to` in it is served: a path answering 200, with `body` in its body if given. */
  probe: (to: string) => { path: string; body?: string };
}

const unquoted = (literal: string): string => literal.slice(1, -1);

const EDITS: Edit[] = [
  { name: 'one route renamed in routes/section0.ts', file: 'routes/section0.ts', swap: ["'/latest'", "'/newest'"], probe: (to) => ({ path: `/s0/c0${unquoted(to)}` }) },
  {
    name: "one controller method's body changed (weave/Controllers/Section0/Item4Controller.ts)",
    file: 'weave/Controllers/Section0/Item4Controller.ts',
    swap: ["'item '", "'thing '"],
    probe: (to) => ({ path: '/s0/c4/items/1', body: `"name":"${unquoted(to)}1"` }),
  },
];

/**
 * Starts `svc tread`, then makes `edit` back and forth and times each until its probe
 * answers. The first edit is not timed: it waits for the file watcher to be ready
 * (writing again until tread notices) and warms the process.
 */
async function rebuilds(project: GeneratedProject, count: number, edit: Edit): Promise<Rebuild[]> {
  const file = join(project.root, edit.file);
  const original = await readFile(file, 'utf8');
  const server = await startServer([bin, 'tread', '--port', '0'], project.root);
  let log = '';
  server.child.stdout!.on('data', (chunk: Buffer) => (log += chunk));
  const results: Rebuild[] = [];
  try {
    for (let i = -1; i < count; i++) {
      const [from, to] = i % 2 !== 0 ? edit.swap : ([edit.swap[1], edit.swap[0]] as const);
      const source = await readFile(file, 'utf8');
      const logged = log.length;
      const written = performance.now();
      const edited = source.replace(from, to);
      await writeFile(file, edited);
      const probe = edit.probe(to);
      if (i < 0) {
        await answered(server.url + probe.path, probe.body, () => writeFile(file, edited));
        continue;
      }
      await answered(server.url + probe.path, probe.body);
      const answerMs = performance.now() - written;
      await until(() => LOGGED.test(log.slice(logged)));
      results.push({ answerMs, ...parseLogged(log.slice(logged)) });
      console.log(`  rebuild ${i + 1}/${count}: answered after ${fixed(answerMs)} ms (tread logged ${results.at(-1)!.loggedMs} ms)`);
    }
  } finally {
    await server.stop();
    await writeFile(file, original);
  }
  return results;
}

/** Polls until `url` answers 200 (with `body` in its body, if given); `nudge` (if given) runs every 10 s meanwhile. */
async function answered(url: string, body?: string, nudge?: () => Promise<void>): Promise<void> {
  let nudged = performance.now();
  await until(async () => {
    if (nudge && performance.now() - nudged > 10_000) {
      await nudge();
      nudged = performance.now();
    }
    const res = await fetch(url).catch(() => null);
    if (res === null) return false;
    const text = await res.text();
    return res.status === 200 && (body === undefined || text.includes(body));
  });
}

async function until(check: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Row {
  size: number;
  svc: Measured;
  tsc: Measured;
  esbuild: Measured;
  /** In `EDITS` order. */
  rebuilds?: Rebuild[][];
}
const rows: Row[] = [];
let openapi: { with: Measured[]; without: Measured[] } | undefined;

// The CLI runs from a bundle cached after install or a source edit (bin/cli-bundle.js),
// and on Node 20 with V8's code cache of ts-morph written by its first build
// (bin/compile-cache.js): make both once here, so that no measured build pays for them.
await measureOk(process.execPath, [bin, 'route', 'list'], repoRoot);

for (const size of SIZES) {
  console.log(`${size} routes…`);
  const project = await generateProject(`routes-${size}`, size);
  const svc = await coldBuild(project);
  console.log(`  svc build ${fixed(svc.ms)} ms (${fixed(svc.cpuS, 1)} s CPU, ${fixed(svc.maxRssMb)} MB)`);
  const typecheck = await measureOk(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], project.root);
  const bundled = await bareEsbuild(project);
  const row: Row = { size: project.routeCount, svc, tsc: typecheck, esbuild: bundled };
  if (size === 1000) {
    row.rebuilds = [];
    for (const edit of EDITS) {
      console.log(`  ${edit.name}:`);
      row.rebuilds.push(await rebuilds(project, REBUILDS, edit));
    }
    openapi = { with: [], without: [] };
    for (let i = 0; i < OPENAPI_RUNS; i++) {
      openapi.with.push(await measureOk(process.execPath, ['--import', 'tsx', buildOnce, project.root], repoRoot));
      openapi.without.push(await measureOk(process.execPath, ['--import', 'tsx', buildOnce, project.root, '--no-openapi'], repoRoot));
    }
  }
  rows.push(row);
}

const ms = (m: Measured): string => fixed(m.ms);
const cpu = (m: Measured): string => fixed(m.cpuS, 2);
const mb = (m: Measured): string => fixed(m.maxRssMb);
const first = rows[0]!;
const builds = markdownTable(
  ['routes', 'svc build ms', 'CPU s', 'peak MB', 'CPU ms per added route', 'tsc --noEmit ms', 'CPU s', 'peak MB', 'esbuild bundle ms', 'peak MB'],
  rows.map((r) => [
    r.size.toLocaleString('en-US'),
    ms(r.svc),
    cpu(r.svc),
    mb(r.svc),
    // The marginal cost over the smallest project: constant when growth is linear.
    r === first ? '–' : fixed(((r.svc.cpuS - first.svc.cpuS) * 1000) / (r.size - first.size), 2),
    ms(r.tsc),
    cpu(r.tsc),
    mb(r.tsc),
    ms(r.esbuild),
    mb(r.esbuild),
  ]),
  ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
);

const sections = [
  `Cold \`svc build\` (no .svc/), one run per size, as child processes; CPU = user + system seconds from /usr/bin/time. ` +
    `Machine: ${machine()}; shared with other work (load often far above 2), so wall times swing and CPU time is the steadier measure.`,
  '',
  builds,
];
const withRebuilds = rows.find((r) => r.rebuilds);
for (const [i, edit] of EDITS.entries()) {
  const runs = withRebuilds?.rebuilds?.[i];
  if (!runs) continue;
  const range = (values: number[]): string[] => [fixed(median(values)), fixed(Math.min(...values)), fixed(Math.max(...values))];
  sections.push(
    '',
    `Warm rebuild in \`svc tread\`, ${withRebuilds!.size.toLocaleString('en-US')} routes, ${edit.name}, ${runs.length} edits:`,
    '',
    markdownTable(
      ['measure', 'median ms', 'min ms', 'max ms'],
      [
        ['file write → the change answers', ...range(runs.map((r) => r.answerMs))],
        ["tread's own log (rebuild + reload)", ...range(runs.map((r) => r.loggedMs))],
        ...Object.keys(runs[0]!.phases).map((phase) => [`  of which ${phase}`, ...range(runs.map((r) => r.phases[phase]!))]),
      ],
      ['l', 'r', 'r', 'r'],
    ),
  );
}
if (openapi) {
  const w = median(openapi.with.map((m) => m.ms));
  const wo = median(openapi.without.map((m) => m.ms));
  const wc = median(openapi.with.map((m) => m.cpuS));
  const woc = median(openapi.without.map((m) => m.cpuS));
  sections.push(
    '',
    `OpenAPI on 1,000 routes (bench/gen/build-once.ts, median of ${openapi.with.length}): the build with openapi.json against the same build without it ` +
      '(the schema walk stays: it also yields the placeholder conversions).',
    '',
    markdownTable(
      ['build', 'median ms', 'median CPU s'],
      [
        ['with OpenAPI', fixed(w), fixed(wc, 2)],
        ['without OpenAPI', fixed(wo), fixed(woc, 2)],
        ['ratio', ratio(w / wo), ratio(wc / woc)],
      ],
      ['l', 'r', 'r'],
    ),
  );
}
const report = sections.join('\n');
console.log(`\n${report}`);
if (ONLY_SIZES === undefined) await writeReadmeSection('build', report);
