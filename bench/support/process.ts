// Child processes for the benches: servers that print the URL they listen on, and
// one-shot commands whose wall time and peak memory are measured.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the URL line. */
  readyMs: number;
  stop(): Promise<void>;
}

const URL_LINE = /(http:\/\/[^\s]+)/;

/**
 * Every server a bench starts, peers and svc alike, runs without V8's memory reducer.
 * The reducer collects garbage in a process that has gone idle, and a server measured
 * after it has run (a peer idles while another is measured) spends 20–40% more CPU per
 * request from then on (bench/README.md, HTTP): that struck servers at random and was
 * most of the spread between rounds. `BENCH_MEMORY_REDUCER=1` keeps V8's default.
 */
export const SERVER_NODE_FLAGS: readonly string[] = process.env.BENCH_MEMORY_REDUCER === '1' ? [] : ['--no-memory-reducer'];

/** How the benches' servers run, for the reports. */
export const serverFlags = (): string =>
  SERVER_NODE_FLAGS.length === 0 ? "servers run with V8's defaults" : `servers run with \`node ${SERVER_NODE_FLAGS.join(' ')}\``;

/**
 * Spawns `node …args` (after SERVER_NODE_FLAGS) in `cwd` and resolves once it prints an
 * `http://` URL. `prefix` runs node through another command that execs it (`taskset -c
 * 0`), so the child's pid is still node's.
 */
export function startServer(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, prefix: readonly string[] = []): Promise<RunningServer> {
  const started = performance.now();
  const [command, ...argv] = [...prefix, process.execPath, ...SERVER_NODE_FLAGS, ...args];
  const child = spawn(command!, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 60 s from node ${args.join(' ')}:\n${output}`)), 60_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const look = (chunk: Buffer): void => {
      output += chunk;
      const found = URL_LINE.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      child.stdout!.resume();
      child.stderr!.resume();
      child.off('exit', exited);
      resolve({ url: found[1]!, child, readyMs: performance.now() - started, stop: () => stop(child) });
    };
    const exited = (code: number | null): void => fail(new Error(`node ${args.join(' ')} exited with ${code}:\n${output}`));
    child.stdout!.on('data', look);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', exited);
  });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface Measured {
  status: number | null;
  ms: number;
  /** Peak resident set size of the command, from /usr/bin/time; NaN where that tool is missing. */
  maxRssMb: number;
  /** User + system CPU seconds, from /usr/bin/time (NaN without it): steadier than wall time on a shared machine. */
  cpuS: number;
  output: string;
}

const TIME = '/usr/bin/time';

/** Runs `command …args` to completion; wall time from spawn to exit. */
export function measure(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const withTime = existsSync(TIME);
  const [file, argv] = withTime ? [TIME, ['-f', 'maxrss-kb=%M cpu=%U+%S', command, ...args]] : [command, [...args]];
  const started = performance.now();
  const child = spawn(file, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      const ms = performance.now() - started;
      const time = /maxrss-kb=(\d+) cpu=([\d.]+)\+([\d.]+)\n?/.exec(output);
      resolve({
        status,
        ms,
        maxRssMb: time ? Number(time[1]) / 1024 : NaN,
        cpuS: time ? Number(time[2]) + Number(time[3]) : NaN,
        output: time ? output.replace(time[0], '') : output,
      });
    });
  });
}

/** `measure`, failing loudly on a non-zero exit. */
export async function measureOk(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const result = await measure(command, args, cwd, env);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status} in ${cwd}:\n${result.output}`);
  return result;
}
