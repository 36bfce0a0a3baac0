// A migration that imports application code may start a timer or open a socket (a
// module that sweeps a cache every minute): `svc cobble run` and `rollback` still exit
// once they are done, or `npm start` (build, cobble run, serve) would never reach serve.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../support/project.ts';
import { appliedNames, createTable, migrationPath, project } from './support.ts';

const cobbleWithin = (root: string, command: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'cobble', command], { cwd: root, encoding: 'utf8', timeout: 20_000 });

test('cobble run and rollback exit although a module a migration imports keeps a timer running', async () => {
  const root = await project({
    'weave/Models/Sweeper.ts': "export const TABLE = 'swept';\nsetInterval(() => {}, 60_000);\n",
    [migrationPath('20260101000000_create_swept')]: `import { TABLE } from '../../weave/Models/Sweeper.ts';\n${createTable('swept').replace("'swept'", 'TABLE').replace("'swept'", 'TABLE')}`,
  });
  const ran = cobbleWithin(root, 'run');
  assert.equal(ran.signal, null, 'cobble run was still running after 20 s');
  assert.equal(ran.status, 0, ran.stderr);
  assert.deepEqual(appliedNames(root), ['20260101000000_create_swept']);
  const rolledBack = cobbleWithin(root, 'rollback');
  assert.equal(rolledBack.signal, null, 'cobble rollback was still running after 20 s');
  assert.equal(rolledBack.status, 0, rolledBack.stderr);
  assert.deepEqual(appliedNames(root), []);
});
