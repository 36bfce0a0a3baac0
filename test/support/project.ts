// Throw-away project trees for tests, under test/.tmp/ so that 'svc' and node_modules
// resolve exactly as they do for the demo application.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const tmpRoot = join(repoRoot, 'test', '.tmp');

/** The smallest application: `GET /` answers "hello". */
export const HELLO_APP: Readonly<Record<string, string>> = {
  'routes/web.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/', () => 'hello');\n};\n`,
};

/** Writes `files` (project-relative path → content) into a fresh folder and returns its path. */
export async function makeProject(files: Record<string, string>): Promise<string> {
  await mkdir(tmpRoot, { recursive: true });
  const root = await mkdtemp(join(tmpRoot, 'project-'));
  await writeFiles(root, files);
  return root;
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export async function removeProject(root: string): Promise<void> {
  // A server's last metrics or log write may still land while the tree is removed.
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}
