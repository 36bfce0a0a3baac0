// A build that esbuild rejects is reported like any other problem, and leaves .svc/ as
// the last good build wrote it: that build stays whole, serves, and its sources describe it.
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

test('a file only esbuild refuses fails the build with SVC010 and leaves every file of .svc/ as the last good build wrote it', async () => {
  const project = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';\nimport { f } from '../weave/f.ts';\nexport default (router: Router) => {\n  router.get('/a', () => f());\n};\n`,
    'weave/f.ts': 'export const f = (): number => 1;\n',
  });
  try {
    assert.equal(svc(project, ['build']).status, 0);
    const files = ['dispatcher.ts', 'entry.ts', ...STARTUP_FILES];
    const contents = (): Promise<string[]> => Promise.all(files.map((name) => readFile(join(project, '.svc', name), 'utf8')));
    const good = await contents();
    // TypeScript parses a `with` statement; esbuild refuses it in a module.
    await writeFiles(project, {
      'routes/api.ts': `import type { Router } from 'svc';\nimport { f } from '../weave/f.ts';\nexport default (router: Router) => {\n  router.get('/b', () => f());\n};\n`,
      'weave/f.ts': 'export function f(): number {\n  const o = { a: 1 };\n  with (o) {\n    return a;\n  }\n}\n',
    });
    const failed = svc(project, ['build']);
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^weave\/f\.ts:3:3 - error SVC010: With statements cannot be used/);
    assert.deepEqual(await contents(), good, '.svc/dispatcher.ts still describes the build .svc/app.mjs serves');
  } finally {
    await removeProject(project);
  }
});
