// Knot tests: project trees from test/fixtures/middleware/, served through the real
// `svc build`, and the clock the fixtures' Clocked* knots read (their `now()` override).
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { HandlerOptions } from '../../runtime/server/index.ts';
import type { CliResult } from './cli.ts';
import { repoRoot } from './project.ts';
import { raw, startProject, type RawResponse, type Running } from './server.ts';

const fixtures = join(repoRoot, 'test', 'fixtures', 'middleware');

/** The time the Clocked* knots see; move it with `clock.now += …`. */
export const clock = { now: Date.UTC(2030, 0, 1) };
(globalThis as unknown as { svcKnotClock: typeof clock }).svcKnotClock = clock;

/** A fixture tree's files (project-relative path → content). */
export async function fixtureFiles(name: string): Promise<Record<string, string>> {
  const folder = join(fixtures, name);
  const files: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(folder, path).split('\\').join('/')] = await readFile(path, 'utf8');
  }
  return files;
}

/** Builds and serves fixture tree `name` with the clocked knots in its weave/Middleware/. */
export async function startFixture(name: string, options: Partial<Omit<HandlerOptions, 'root'>> = {}, extra: Record<string, string> = {}): Promise<Running> {
  return startProject({ ...(await fixtureFiles('clocked')), ...(await fixtureFiles(name)), ...extra }, options);
}

/** `ctx.ip` from the `x-test-ip` request header, so one test can be many clients. */
export const addressFromHeader: HandlerOptions['clientAddress'] = (req) => String(req.headers['x-test-ip'] ?? '127.0.0.1');

export function get(server: Running, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(server.url, target, { headers });
}

/** The real `svc` binary, without blocking this process (which may be serving the project). */
export function svcAsync(cwd: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
