// A JSON file imported by an application file: esbuild's JSON loader exports the value as
// the default and an object's top-level keys by name; the analysis accepts exactly those.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeProject, removeProject } from '../support/project.ts';
import { startProject } from '../support/server.ts';
import { lines, runSvc } from './fixture.ts';

const data = JSON.stringify({ plan: 'basic', limits: [1, 2] });

const app = await startProject({
  'weave/data.json': data,
  'routes/api.ts': [
    "import type { Router } from 'svc';",
    "import settings from '../weave/data.json' with { type: 'json' };",
    "import { plan } from '../weave/data.json';",
    '',
    'export default (router: Router) => {',
    "  router.get('/settings', () => ({ settings, plan }));",
    '};',
    '',
  ].join('\n'),
});
after(() => app.close());

test('the default and a top-level key of a JSON file build and serve', async () => {
  assert.deepEqual(await (await fetch(`${app.url}/settings`)).json(), { settings: JSON.parse(data), plan: 'basic' });
});

test('a key the JSON file does not have is SVC011 where it is imported', async () => {
  const root = await makeProject({
    'weave/data.json': data,
    'routes/api.ts': "import type { Router } from 'svc';\nimport { tier } from '../weave/data.json';\nexport default (router: Router) => {\n  router.get('/', () => tier);\n};\n",
  });
  try {
    const run = await runSvc(root, ['build']);
    assert.equal(run.code, 1);
    assert.deepEqual(lines(run.stderr), ['routes/api.ts:2:10 - error SVC011: No matching export in "weave/data.json" for import "tier". Correct the import, or create what it names.']);
  } finally {
    await removeProject(root);
  }
});
