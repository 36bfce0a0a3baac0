// A build that esbuild rejects is reported like any other problem, and writes nothing
// the server reads when it starts: the last good build in .svc/ stays whole and serves.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { svc, svcServer } from '../support/cli.ts';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';

const STARTUP_FILES = ['app.mjs', 'manifest.json', 'ip-tables.json', 'openapi.json'];

let root: string;

before(async () => {
  root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/hello', () => 'hello');\n};\n`,
  });
});

after(() => removeProject(root));

const startupFiles = (): Promise<string[]> => Promise.all(STARTUP_FILES.map((name) => readFile(join(root, '.svc', name), 'utf8')));

test('an import of a missing file fails the build with SVC011 and leaves the last good build serving', async () => {
  assert.equal(svc(root, ['build']).status, 0);
  const good = await startupFiles();

  await writeFiles(root, {
    'routes/api.ts': `import type { Router } from 'svc';\nimport { word } from './words.ts';\nexport default (router: Router) => {\n  router.get('/hello', () => 'hello');\n  router.get('/word', () => word);\n};\n`,
  });
  const failed = svc(root, ['build']);
  assert.equal(failed.status, 1);
  assert.equal(failed.stderr, 'routes/api.ts:2:22 - error SVC011: Could not resolve "./words.ts". Correct the import, or create what it names.\n');
  assert.deepEqual(await startupFiles(), good);

  const server = await svcServer(root, ['serve', '--port', '0']);
  try {
    assert.equal(await (await fetch(`${server.url}/hello`)).text(), 'hello');
    assert.equal((await fetch(`${server.url}/word`)).status, 404);
  } finally {
    await server.stop();
  }
});
