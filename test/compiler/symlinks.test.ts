// A routes/ folder that is a symlink (shared between projects, say) builds as if its files
// were in place: the analysis reads routes/api.ts's imports from routes/, and so must
// esbuild, which by default would resolve them from the folder the link points into.
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { svc, svcServer } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

test('route files in a symlinked routes/ import the project\'s weave/ relative to routes/', async () => {
  const shared = await makeProject({
    'api.ts': `import type { Router } from 'svc';\nimport { UserController } from '../weave/Controllers/UserController.ts';\nexport default (router: Router) => {\n  router.get('/users/{id}', [UserController, 'show']);\n};\n`,
  });
  const root = await makeProject({
    'weave/Controllers/UserController.ts': `export class UserController {\n  show(id: string) {\n    return { id };\n  }\n}\n`,
  });
  try {
    await symlink(shared, join(root, 'routes'), 'dir');
    const built = svc(root, ['build']);
    assert.equal(built.stderr, '');
    assert.equal(built.status, 0);
    const server = await svcServer(root, ['serve', '--port', '0']);
    try {
      assert.deepEqual(await (await fetch(`${server.url}/users/7`)).json(), { id: '7' });
    } finally {
      await server.stop();
    }
  } finally {
    await removeProject(root);
    await removeProject(shared);
  }
});
