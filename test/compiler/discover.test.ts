import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { discover } from '../../compiler/discover/index.ts';
import { makeProject, removeProject } from '../support/project.ts';

describe('discover', () => {
  it('lists routes/*.ts in code-unit order, project-relative, nothing else', async () => {
    const root = await makeProject({
      'routes/web.ts': '',
      'routes/Api.ts': '',
      'routes/api.ts': '',
      'routes/types.d.ts': '',
      'routes/notes.md': '',
      'routes/nested/deep.ts': '',
      'weave/Controllers/X.ts': '',
    });
    try {
      assert.deepEqual(await discover(root), { routeFiles: ['routes/Api.ts', 'routes/api.ts', 'routes/web.ts'], diagnostics: [] });
    } finally {
      await removeProject(root);
    }
  });

  it('refuses a routes/*.ts that is no file, rather than leave its routes out without a word (SVC012)', async () => {
    const root = await makeProject({ 'routes/api.ts': '', 'shared/kept.ts': '' });
    try {
      await symlink('../shared/kept.ts', join(root, 'routes', 'linked.ts'));
      await symlink('../shared/moved-away.ts', join(root, 'routes', 'dangling.ts'));
      await symlink('looped.ts', join(root, 'routes', 'looped.ts'));
      await mkdir(join(root, 'routes', 'folder.ts'));
      const found = await discover(root);
      assert.deepEqual(found.routeFiles, ['routes/api.ts', 'routes/linked.ts']);
      assert.deepEqual(found.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`), [
        'routes/dangling.ts:1:1 error SVC012 routes/dangling.ts is a link to nothing; a route file must be a file: restore it, or rename or remove it',
        'routes/folder.ts:1:1 error SVC012 routes/folder.ts is a folder; a route file must be a file: restore it, or rename or remove it',
        'routes/looped.ts:1:1 error SVC012 routes/looped.ts is a link that leads back to itself; a route file must be a file: restore it, or rename or remove it',
      ]);
    } finally {
      await removeProject(root);
    }
  });

  it('warns when there is no route file, and refuses a routes that is not a folder (SVC012)', async () => {
    const root = await makeProject({ 'weave/Controllers/X.ts': '' });
    try {
      const none = await discover(root);
      assert.deepEqual(none.routeFiles, []);
      assert.deepEqual(none.diagnostics.map((d) => `${d.severity} ${d.code}`), ['warning SVC012']);
      await writeFile(join(root, 'routes'), 'a file');
      assert.deepEqual((await discover(root)).diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`), [
        'routes:1:1 error SVC012 routes is not a folder; route files are routes/*.ts',
      ]);
    } finally {
      await removeProject(root);
    }
  });
});
