// A copy of the framework under test/.tmp/ with caches of its own (node_modules/.cache/svc/,
// see bin/cache-folder.js), so that tests can edit its sources and damage its caches and
// leave this checkout alone. The copy has no node_modules of its own: packages resolve
// upwards, from this checkout's.
import { spawnSync } from 'node:child_process';
import { cp, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliResult } from './cli.ts';
import { makeProject, repoRoot } from './project.ts';

const SOURCES = ['bin', 'compiler', 'runtime', 'templates', 'package.json', 'tsconfig.json'];
/** Whole seconds, an hour ago: older than any slack the CLI bundle allows for edits in progress. */
export const PAST = Math.floor(Date.now() / 1000) - 3600;

/** Copies the framework into a fresh folder, every file dated PAST, and returns the folder. */
export async function copyFramework(): Promise<string> {
  const framework = await makeProject({});
  for (const source of SOURCES) await cp(join(repoRoot, source), join(framework, source), { recursive: true });
  await ageTree(framework);
  return framework;
}

export const cacheFolderOf = (framework: string): string => join(framework, 'node_modules', '.cache', 'svc');

/** Sets every file's mtime to PAST, as if it had been written long ago. */
export async function ageTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await ageTree(path);
    else await utimes(path, PAST, PAST);
  }
}

export interface RunOptions {
  /** The folder to run in; the copy itself by default. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Options for node itself, before the script. */
  nodeOptions?: string[];
  /** Another user to run as (only root may). */
  user?: { uid: number; gid: number };
}

/** Runs the copy's `svc` to completion. */
export function svcFrom(framework: string, args: string[], { cwd = framework, env = {}, nodeOptions = [], user }: RunOptions = {}): CliResult {
  const result = spawnSync(process.execPath, [...nodeOptions, join(framework, 'bin', 'svc.js'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, ...user });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
