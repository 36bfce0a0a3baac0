// Runs the real `svc` binary in a project tree, as a user would.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './project.ts';

const bin = join(repoRoot, 'bin', 'svc.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function svc(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface RunningSvc {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts a long-running command (`serve`, `tread`) and resolves with the URL it prints. */
export async function svcServer(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningSvc> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed within 60 s:\n${output}`)), 60_000);
    const look = (): void => {
      const found = /serving (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving:\n${output}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Polls `check` until it returns true; fails after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
