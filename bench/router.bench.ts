// `npm run bench:router`: the generated dispatcher against the fastest Node routers, on
// the standard 12-route set of the Hono / find-my-way benchmarks and on a 300-route
// GitHub-API-like set. Every router answers the same requests and extracts the params.
// Prints a table of the median ns/op (best of BENCH_ROUNDS rounds) and writes it to bench/README.md.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import FindMyWay from 'find-my-way';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { Memoirist } from 'memoirist';
import { bench, do_not_optimize, group, run } from 'mitata';
import { addRoute, createRouter, findRoute } from 'rou3';
import { compileRouter } from 'rou3/compiler';
import { emitCanonicalPath } from '../compiler/emit/canonical-path.ts';
import { emitDispatcher } from '../compiler/emit/dispatcher/index.ts';
import type { MatchFn } from '../runtime/routing/match.ts';
import { github } from './routes/github.ts';
import { parseLine, peerPattern, toRoutes, type BenchCase, type RouteSet } from './routes/route-set.ts';
import { standard } from './routes/standard.ts';

type Lookup = (method: string, path: string) => unknown;

interface Contender {
  name: string;
  /** svc's own entries are measured but not counted as peers. */
  svc?: boolean;
  build(set: RouteSet): Lookup | Promise<Lookup>;
}

const handler = () => undefined;

/** Each peer registered the way its documentation shows, `:name` placeholders. */
const peerRoutes = (set: RouteSet) =>
  set.routes.map(parseLine).map(({ method, pattern }) => ({ method, pattern: peerPattern(set, pattern) }));

const contenders: Contender[] = [
  // The switch alone, as the server calls it with the path it has already read.
  { name: 'svc matchCanonical', svc: true, build: async (set) => (await loadDispatcher(set)).matchCanonical },
  // The exported match(), reading the path as a request gives it (canonicalPath) first.
  { name: 'svc match', svc: true, build: async (set) => (await loadDispatcher(set)).match },
  {
    name: 'find-my-way',
    build(set) {
      const router = FindMyWay();
      for (const { method, pattern } of peerRoutes(set)) router.on(method as 'GET', pattern, handler);
      return (method, path) => router.find(method as 'GET', path);
    },
  },
  {
    name: 'memoirist',
    build(set) {
      const router = new Memoirist<typeof handler>();
      for (const { method, pattern } of peerRoutes(set)) router.add(method, pattern, handler);
      return (method, path) => router.find(method, path);
    },
  },
  {
    name: 'rou3 findRoute',
    build(set) {
      const router = createRouter<typeof handler>();
      for (const { method, pattern } of peerRoutes(set)) addRoute(router, method, pattern, handler);
      return (method, path) => findRoute(router, method, path);
    },
  },
  {
    name: 'rou3 compileRouter',
    build(set) {
      const router = createRouter<typeof handler>();
      for (const { method, pattern } of peerRoutes(set)) addRoute(router, method, pattern, handler);
      return compileRouter(router);
    },
  },
  {
    name: 'Hono RegExpRouter',
    build(set) {
      const router = new RegExpRouter<typeof handler>();
      for (const { method, pattern } of peerRoutes(set)) router.add(method, pattern, handler);
      // match() leaves the params as indexes into a stash; read them out like c.req.param() does.
      return (method, path) => {
        const [matched, stash] = router.match(method, path);
        if (matched.length === 0) return null;
        const [found, indexes] = matched[0] as [typeof handler, Record<string, number>];
        const params: Record<string, string> = {};
        for (const name in indexes) params[name] = (stash as string[])[indexes[name]];
        return { found, params };
      };
    },
  },
];

/** The generated `.svc/dispatcher.ts` for the set, written under test/.tmp/ beside the canonical-path.ts it imports, and imported. */
async function loadDispatcher(set: RouteSet): Promise<{ match: MatchFn; matchCanonical: MatchFn }> {
  const dir = new URL(`../test/.tmp/bench/${set.name.replace(/\W+/g, '-')}/`, import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('canonical-path.ts', dir), emitCanonicalPath());
  const file = new URL('dispatcher.ts', dir);
  await writeFile(file, emitDispatcher(toRoutes(set)));
  return (await import(file.href)) as { match: MatchFn; matchCanonical: MatchFn };
}

const ALL = 'all together';
const sets = [standard, github];

/**
 * A request's path as the HTTP parser hands it over: a fresh string. A string literal is
 * interned, which makes V8 compare it by pointer and cache its `split()` results, and
 * that flatters some routers more than others; BENCH_INTERNED=1 measures that case.
 */
const INTERNED = process.env.BENCH_INTERNED === '1';
const requestPath = (text: string): string => (INTERNED ? text : [...text].join(''));

/** Routers that refuse a set, e.g. RegExpRouter's UnsupportedPathError on ambiguous tables. */
const refused = new Map<string, string>();

const prepared: Array<{ set: RouteSet; lookups: Array<readonly [Contender, Lookup]>; cases: BenchCase[] }> = [];
for (const set of sets) {
  const lookups: Array<readonly [Contender, Lookup]> = [];
  for (const contender of contenders) {
    try {
      lookups.push([contender, await contender.build(set)]);
    } catch (error) {
      refused.set(`${contender.name} [${set.name}]`, error instanceof Error ? error.name : String(error));
    }
  }
  checkAgreement(set, lookups);
  prepared.push({ set, lookups, cases: set.cases.map((c) => ({ ...c, path: requestPath(c.path) })) });
}

function register(): void {
  for (const { set, lookups, cases } of prepared) {
    for (const { name, method, path } of cases) {
      group(`${set.name} · ${name}: ${method} ${path}`, () => {
        for (const [contender, lookup] of lookups) {
          bench(key(set, name, contender), () => do_not_optimize(lookup(method, path)));
        }
      });
    }
    group(`${set.name} · ${ALL}`, () => {
      for (const [contender, lookup] of lookups) {
        bench(key(set, ALL, contender), () => {
          for (const { method, path } of cases) do_not_optimize(lookup(method, path));
        });
      }
    });
  }
}

/** Every router must find (or miss) the same cases as svc, or the timings compare different work. */
function checkAgreement(set: RouteSet, lookups: Array<readonly [Contender, Lookup]>): void {
  const found = (answer: unknown) => answer != null && (answer as { kind?: string }).kind !== 'not-found';
  for (const { name, method, path } of set.cases) {
    const answers = lookups.map(([contender, lookup]) => [contender.name, found(lookup(method, path))] as const);
    if (answers.some(([, ok]) => ok !== answers[0][1])) {
      throw new Error(`${set.name} · ${name}: routers disagree: ${JSON.stringify(answers)}`);
    }
  }
}

function key(set: RouteSet, caseName: string, contender: Contender): string {
  return `${contender.name} [${set.name} · ${caseName}]`;
}

// Several rounds, keeping each benchmark's best median: a burst of load from elsewhere on
// the machine then spoils one round of one benchmark, not the table.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const medians = new Map<string, number>();
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round} of ${ROUNDS}…`);
  register();
  const { benchmarks } = await run({ format: 'quiet' });
  for (const trial of benchmarks) {
    const median = trial.runs[0].stats?.p50 ?? NaN;
    medians.set(trial.alias, Math.min(median, medians.get(trial.alias) ?? Infinity));
  }
}

/** One markdown table per set: median ns/op per router, and svc's speed-up over the best peer. */
function table(set: RouteSet): string {
  const cases = [...set.cases.map((c) => c.name), ALL];
  const header = `| case | ${contenders.map((c) => c.name).join(' | ')} | best peer / svc matchCanonical |`;
  const rule = `|---|${contenders.map(() => '---:').join('|')}|---:|`;
  const rows = cases.map((name) => {
    const times = contenders.map((c) => medians.get(key(set, name, c)) ?? NaN);
    const bestPeer = Math.min(...times.filter((t, i) => !contenders[i].svc && !Number.isNaN(t)));
    const cells = times.map((t) => (Number.isNaN(t) ? 'n/a' : t.toFixed(1)));
    return `| ${name} | ${cells.join(' | ')} | ${(bestPeer / times[0]).toFixed(2)}× |`;
  });
  const notes = contenders.flatMap((c) => {
    const reason = refused.get(`${c.name} [${set.name}]`);
    return reason ? [`n/a: ${c.name} refuses this table (${reason}).`] : [];
  });
  return [`### ${set.name}`, '', header, rule, ...rows, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

const machine = `nproc ${cpus().length}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`;
const paths = INTERNED ? 'interned (string literal) paths' : 'fresh path strings';
const report = [`Median ns/op (mitata p50, best of ${ROUNDS} rounds, ${paths}), lower is better. Machine: ${machine}.`, '', ...sets.map(table).flatMap((t) => [t, ''])].join('\n');
console.log(`\n${report}`);

const readme = new URL('./README.md', import.meta.url);
const START = '<!-- bench:router results -->';
const END = '<!-- /bench:router results -->';
const current = await readFile(readme, 'utf8').catch(() => `${START}\n${END}\n`);
const [before, rest] = current.split(START);
const after = rest?.split(END)[1] ?? '\n';
await writeFile(readme, `${before}${START}\n${report}\n${END}${after}`);
