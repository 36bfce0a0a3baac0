// A handler written as the name of a function: declared, held by a `const`, imported, or a
// module's default export. Each is analysed where it is declared (its placeholders typed
// from its parameters); a name whose function may change after the build reads it is SVC006.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { makeProject, removeProject } from '../support/project.ts';

const FILES = {
  'lib/handlers.ts': [
    'export function declared(id: number) {',
    '  return id;',
    '}',
    'export const arrow = (id: number) => id;',
    '',
  ].join('\n'),
  'lib/default-function.ts': 'export default function (id: number) {\n  return id;\n}\n',
  'lib/default-arrow.ts': 'export default (id: number) => id;\n',
  'lib/default-name.ts': 'const named = (id: number) => id;\nexport default named;\n',
  'routes/api.ts': [
    "import type { Router } from 'svc';",
    "import { arrow, declared } from '../lib/handlers.ts';",
    "import defaultFunction from '../lib/default-function.ts';",
    "import defaultArrow from '../lib/default-arrow.ts';",
    "import defaultName from '../lib/default-name.ts';",
    '',
    'function local(id: number) {',
    '  return id;',
    '}',
    '',
    'export default (router: Router) => {',
    "  router.get('/local/{id}', local);",
    "  router.get('/declared/{id}', declared);",
    "  router.get('/arrow/{id}', arrow);",
    "  router.get('/default-function/{id}', defaultFunction);",
    "  router.get('/default-arrow/{id}', defaultArrow);",
    "  router.get('/default-name/{id}', defaultName);",
    '};',
    '',
  ].join('\n'),
  'svc.json': '{}',
};

let root: string;
before(async () => {
  root = await makeProject(FILES);
});
after(() => removeProject(root));

test('a handler named by a function, a const, an import or a default import is typed from its declaration', async () => {
  const result = await build(root, { write: false });
  assert.deepEqual(result.diagnostics, []);
  const closures = result.table.routes.filter((route) => route.handler.kind === 'closure');
  assert.deepEqual(
    closures.map((route) => [route.pattern, route.segments.at(-1)]),
    ['local', 'declared', 'arrow', 'default-function', 'default-arrow', 'default-name'].map((name) => [
      `/${name}/{id}`,
      { kind: 'param', name: 'id', optional: false, type: { kind: 'number' } },
    ]),
  );
});

test('a handler held by a let or var is SVC006: the runtime would call whatever it holds by then', async () => {
  const other = await makeProject({
    ...FILES,
    'routes/api.ts': [
      "import type { Router } from 'svc';",
      '',
      'let later = (id: number) => id;',
      "later = ((id: string) => 'text ' + id) as unknown as typeof later;",
      '',
      'export default (router: Router) => {',
      "  router.get('/later/{id}', later);",
      '};',
      '',
    ].join('\n'),
  });
  try {
    const result = await build(other, { write: false });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.text}`),
      ["routes/api.ts:7:29 SVC006 'later' is declared with `let`: svc build reads the function it starts with, but a request calls whatever it holds by then; declare it `const`"],
    );
  } finally {
    await removeProject(other);
  }
});
