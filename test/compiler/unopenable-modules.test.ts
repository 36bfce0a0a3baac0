// A controller or middleware named by string stands for a path svc build opens itself
// (no import leads there). Whatever is at that path, or however the name is spelled, the
// build reports the name (SVC004, SVC008) and does not stop on the file system's error.
import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

const LONG = 'A'.repeat(300); // a valid class name, too long for a file name

test('a name whose module is a folder, a symlink loop or too long a file name is an unknown class', async () => {
  const root = await makeProject({
    'routes/api.ts': [
      `import type { Router } from 'svc';`,
      `export default (router: Router) => {`,
      `  router.get('/folder', ['Folder', 'index']);`,
      `  router.get('/loop', ['Loop', 'index']);`,
      `  router.get('/long', ['${LONG}', 'index']);`,
      `  router.group({ middleware: ['Folder', 'Loop'] }, (r) => {`,
      `    r.get('/guarded', () => 'x');`,
      `  });`,
      `};`,
      ``,
    ].join('\n'),
    'svc.json': '{}',
  });
  try {
    for (const folder of ['weave/Controllers', 'weave/Middleware']) {
      await mkdir(join(root, folder, 'Folder.ts'), { recursive: true });
      await symlink(join(root, folder, 'Loop.ts'), join(root, folder, 'Loop.ts'));
    }
    const built = svc(root, ['build']);
    const note = '    class names given as strings resolve to weave/Controllers/<namespace>/<ClassName>.ts';
    assert.deepEqual(built.stderr.split('\n').filter(Boolean), [
      `routes/api.ts:3:26 - error SVC004: unknown controller class 'Folder': weave/Controllers/Folder.ts is a folder, not a file`,
      note,
      `routes/api.ts:4:24 - error SVC004: unknown controller class 'Loop': weave/Controllers/Loop.ts is a link that leads back to itself`,
      note,
      `routes/api.ts:5:24 - error SVC004: unknown controller class '${LONG}': weave/Controllers/${LONG}.ts does not exist`,
      note,
      `routes/api.ts:6:31 - error SVC008: unknown middleware 'Folder': weave/Middleware/Folder.ts is a folder, not a file, and 'svc' exports no such class`,
      `routes/api.ts:6:41 - error SVC008: unknown middleware 'Loop': weave/Middleware/Loop.ts is a link that leads back to itself, and 'svc' exports no such class`,
    ]);
    assert.equal(built.status, 1);
  } finally {
    await removeProject(root);
  }
});

test('a namespace holding a NUL byte is an invalid namespace, not a path the file system refuses', async () => {
  const root = await makeProject({
    'routes/api.ts': [
      `import type { Router } from 'svc';`,
      `export default (router: Router) => {`,
      `  router.group({ namespace: 'A\\0' }, (r) => {`,
      `    r.get('/a', ['UserController', 'index']);`,
      `  });`,
      `};`,
      ``,
    ].join('\n'),
    'svc.json': '{}',
  });
  try {
    const built = svc(root, ['build']);
    assert.deepEqual(built.stderr.split('\n').filter(Boolean), [
      // The NUL is printed as the source writes it (compiler/diagnostics.ts).
      `routes/api.ts:3:29 - error SVC005: invalid namespace 'A\\u0000': 'A\\u0000' is not a folder name; a namespace names folders under weave/Controllers/ (ASCII letters, digits, '_' and '-')`,
      `routes/api.ts:4:18 - error SVC004: unknown controller class 'UserController': weave/Controllers/A\\u0000/UserController.ts does not exist`,
      '    class names given as strings resolve to weave/Controllers/<namespace>/<ClassName>.ts',
    ]);
    assert.equal(built.status, 1);
  } finally {
    await removeProject(root);
  }
});
