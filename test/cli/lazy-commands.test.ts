// Each command's npm packages load only when that command runs (compiler/cli/main.ts):
// a module hook records every package the real `svc` binary imports.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

let root: string;

before(async () => {
  root = await makeProject({
    'routes/web.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'hi'); };\n",
    'hooks/register.mjs': "import { register } from 'node:module';\nregister('./record.mjs', import.meta.url, { data: process.env.SVC_TEST_IMPORTS });\n",
    'hooks/record.mjs': `import { appendFileSync } from 'node:fs';
let log;
export function initialize(file) { log = file; }
export function resolve(specifier, context, next) {
  if (/^[@a-z]/.test(specifier) && !specifier.startsWith('node:')) appendFileSync(log, specifier + '\\n');
  return next(specifier, context);
}
`,
  });
});

after(() => removeProject(root));

/** The npm packages `svc <args>` imports. */
async function packagesImportedBy(args: string[]): Promise<Set<string>> {
  const log = join(root, `imports-${args.join('-')}.log`);
  const hooks = pathToFileURL(join(root, 'hooks', 'register.mjs')).href;
  const result = spawnSync(process.execPath, ['--import', hooks, join(repoRoot, 'bin', 'svc.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SVC_TEST_IMPORTS: log },
  });
  assert.equal(result.status, 0, result.stderr);
  return new Set((await readFile(log, 'utf8')).split('\n').filter(Boolean));
}

test('svc build loads the compiler, not the database, the watcher or the server', async () => {
  const imported = await packagesImportedBy(['build']);
  for (const used of ['ts-morph', 'esbuild', 'handlebars']) assert.ok(imported.has(used), `${used} is loaded: the hook sees imports`);
  for (const unused of ['kysely', 'better-sqlite3', 'chokidar']) assert.ok(!imported.has(unused), `${unused} was loaded`);
});

test('svc cobble status loads neither the compiler nor the watcher', async () => {
  const imported = await packagesImportedBy(['cobble', 'status']);
  assert.ok(imported.has('cac'), 'the hook sees imports');
  for (const unused of ['ts-morph', 'chokidar']) assert.ok(!imported.has(unused), `${unused} was loaded`);
});
