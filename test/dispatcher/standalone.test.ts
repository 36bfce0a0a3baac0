// `match(method, path)` can be imported from the build on its own, as SPEC §3 wants for
// tests and benchmarks, even where the project's package.json leaves files CommonJS.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

const root = await makeProject({
  'package.json': '{ "name": "plain", "private": true }\n',
  'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/users/{id}', (id: string) => id); };\n`,
});
after(() => removeProject(root));

test('.svc/dispatcher.ts loads through tsx in a project whose package.json does not say "type": "module"', () => {
  const built = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'build'], { cwd: root, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const dispatcher = pathToFileURL(join(root, '.svc', 'dispatcher.ts')).href;
  const script = `const { match } = await import(${JSON.stringify(dispatcher)}); console.log(JSON.stringify([match('GET', '/users/7'), match('POST', '/users/7')]));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), [
    { kind: 'found', route: 0, params: ['7'] },
    { kind: 'method-not-allowed', allow: ['GET', 'HEAD', 'OPTIONS'] },
  ]);
});
