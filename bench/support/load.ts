// Load generation for the HTTP benches, kept off the server's core. On a small machine
// the load generator and the server otherwise fight over the same cores, and whichever
// the scheduler favours in a round decides its numbers (the order effect the HTTP
// section of bench/README.md describes). With `taskset` and two or more CPUs, the server
// gets one core to itself and autocannon, a child process of its own, the others.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface CorePlan {
  /** Prepended to a server's `node …` command line; empty when nothing is pinned. */
  server: string[];
  /** Prepended to the load generator's command line. */
  load: string[];
  /** One line for the report. */
  description: string;
}

/** The CPUs this process may run on (`Cpus_allowed_list`), e.g. `0-1,4` → [0, 1, 4]. */
function allowedCpus(): number[] {
  const status = readFileSync('/proc/self/status', 'utf8');
  const list = /^Cpus_allowed_list:\s*(.+)$/m.exec(status)?.[1] ?? '';
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.trim().split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to)) return [];
    return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
  });
}

function hasTaskset(): boolean {
  return spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
}

/**
 * Server on the first allowed CPU, load on the rest; this process moves to the load
 * CPUs too, so that its own bookkeeping never takes the server's core.
 */
export function planCores(): CorePlan {
  let cpus: number[] = [];
  try {
    cpus = allowedCpus();
  } catch {
    // no /proc: not Linux, nothing to pin with
  }
  if (cpus.length < 2 || !hasTaskset()) {
    return { server: [], load: [], description: 'not pinned (needs taskset and 2 or more CPUs): server and load share every core' };
  }
  const [server, ...rest] = cpus;
  const load = rest.join(',');
  spawnSync('taskset', ['-a', '-p', '-c', load, String(process.pid)], { stdio: 'ignore' });
  return {
    server: ['taskset', '-c', String(server)],
    load: ['taskset', '-c', load],
    description: `each server pinned to CPU ${server}, autocannon (its own process) to CPU ${load}`,
  };
}

export interface LoadOptions {
  url: string;
  connections: number;
  pipelining: number;
  /** How long the load lasts… */
  seconds?: number;
  /** …or how many requests it sends. */
  requests?: number;
}

/** The fields of autocannon's `--json` result the benches read. */
export interface LoadResult {
  requests: { average: number; total: number };
  /** Seconds the run lasted. */
  duration: number;
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Runs the autocannon CLI (`--json`) as a child under `prefix` and resolves with its result. */
export function runLoad(options: LoadOptions, prefix: readonly string[] = []): Promise<LoadResult> {
  const argv = [
    process.execPath,
    autocannonCli,
    '--json',
    '-c', String(options.connections),
    '-p', String(options.pipelining),
    ...(options.requests === undefined ? ['-d', String(options.seconds)] : ['-a', String(options.requests)]),
    options.url,
  ];
  const [command, ...args] = [...prefix, ...argv];
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(line) as LoadResult);
      } catch (e) {
        reject(new Error(`autocannon ${options.url}: ${(e as Error).message}\n${err}${out}`));
      }
    });
  });
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * User + system CPU seconds `pid` has used so far, all its threads (GC, libuv pool)
 * included, from /proc/<pid>/stat; NaN where there is no /proc.
 */
export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return NaN;
  }
  // The command name (field 2) may hold spaces and parentheses: count from its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}
