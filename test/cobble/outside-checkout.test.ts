// An application outside this checkout that runs its CLI without installing svc (README):
// its migrations, imported as they are, find `'svc'` as its routes do in the build.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { svc } from '../support/cli.ts';
import { writeFiles } from '../support/project.ts';

test("cobble run loads migrations that import 'svc' in an application without svc installed", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'svc-outside-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFiles(root, {
    'package.json': '{ "type": "module" }\n',
    'svc.json': '{}\n',
    'routes/web.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'up'); };\n",
  });
  assert.equal(svc(root, ['cobble', 'create', 'create_things']).status, 0);
  const ran = svc(root, ['cobble', 'run']);
  assert.equal(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /Applied\s+\d{14}_create_things/);
  const rolledBack = svc(root, ['cobble', 'rollback']);
  assert.equal(rolledBack.status, 0, rolledBack.stderr);
});

test("without \"type\": \"module\" (CommonJS, out of the hook's reach), cobble run says how to fix the missing 'svc'", async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'svc-outside-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFiles(root, { 'svc.json': '{}\n', 'routes/web.ts': "export default () => {};\n" });
  assert.equal(svc(root, ['cobble', 'create', 'create_things']).status, 0);
  const ran = svc(root, ['cobble', 'run']);
  assert.equal(ran.status, 1);
  assert.match(ran.stderr, /Cannot find module 'svc'[^\n]*; svc is not installed in this application: install it \(docs\/guide\.md, "A project of your own"\), or give the application's package\.json "type": "module"/);
  assert.doesNotMatch(ran.stderr, /Require stack/);
});
