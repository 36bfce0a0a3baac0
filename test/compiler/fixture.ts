// Fixture trees from test/fixtures/diagnostics/, copied under test/.tmp/ before the real
// `svc` binary runs in them, so a build that unexpectedly succeeds writes nothing into test/fixtures/.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../support/project.ts';

export const fixturesDir = join(repoRoot, 'test', 'fixtures', 'diagnostics');

export async function copyFixture(name: string): Promise<string> {
  const tmp = join(repoRoot, 'test', '.tmp');
  await mkdir(tmp, { recursive: true });
  const root = await mkdtemp(join(tmp, `${name}-`));
  await cp(join(fixturesDir, name), root, { recursive: true, filter: (source) => !source.endsWith('expected.txt') });
  return root;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/svc.js …` in `cwd`, without blocking the event loop so cases can run side by side. */
export function runSvc(cwd: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');
