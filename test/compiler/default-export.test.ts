// SPEC §2: a route file's default export is an arrow function or a function declaration,
// in whichever way TypeScript lets a module say so.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { makeProject, removeProject } from '../support/project.ts';

const FILES = {
  'routes/arrow.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/arrow', () => 'a');\n};\n`,
  'routes/declaration.ts': `import type { Router } from 'svc';\nexport default function (r: Router): void {\n  r.get('/declaration', () => 'b');\n}\n`,
  'routes/named-arrow.ts': `import type { Router } from 'svc';\nconst routes = (router: Router) => {\n  router.get('/named-arrow', () => 'c');\n};\nexport default routes;\n`,
  'routes/export-list.ts': `import type { Router } from 'svc';\nfunction routes(router: Router) {\n  router.get('/export-list', () => 'd');\n}\nexport { routes as default };\n`,
  'svc.json': '{}',
};

let root: string;
before(async () => {
  root = await makeProject(FILES);
});
after(() => removeProject(root));

test('every way of default-exporting the route function is read', async () => {
  const result = await build(root, { write: false });
  assert.deepEqual(result.diagnostics, []);
  const paths = result.table.routes.filter((route) => route.handler.kind === 'closure').map((route) => route.pattern);
  assert.deepEqual(paths.sort(), ['/arrow', '/declaration', '/export-list', '/named-arrow']);
});

test('a re-export from another module is not a route function of this file', async () => {
  const other = await makeProject({ ...FILES, 'routes/export-list.ts': `export { default } from './arrow.ts';\n` });
  try {
    const result = await build(other, { write: false });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code}`),
      ['routes/export-list.ts:1:1 SVC006'],
    );
  } finally {
    await removeProject(other);
  }
});
