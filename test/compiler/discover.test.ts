import assert from 'node:assert/strict';
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
      assert.deepEqual((await discover(root)).routeFiles, ['routes/Api.ts', 'routes/api.ts', 'routes/web.ts']);
    } finally {
      await removeProject(root);
    }
  });
});
