// A Map, Set, Headers, URLSearchParams or File in an answer is sent as `{}`: documented as
// what is sent, with an SVC009 warning at the type saying what to send instead. One in a
// request body (`json<Map<…>>()`) is never what JSON.parse gives: the warning says so.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { makeProject, removeProject } from '../support/project.ts';

let root: string;
before(async () => {
  root = await makeProject({
    'routes/api.ts': [
      "import type { Context, Router } from 'svc';",
      '',
      'export default (router: Router) => {',
      "  router.get('/map', (): Map<string, number> => new Map([['a', 1]]));",
      "  router.get('/tags', (): { tags: Set<string>; count: number } => ({ tags: new Set(['x']), count: 1 }));",
      "  router.get('/plain', (): { tags: string[] } => ({ tags: ['x'] }));",
      "  router.post('/upload', async function (this: Context) { return { name: (await this.form()).get('name') }; });",
      "  router.post('/counts', function (this: Context) { return Object.keys(this.json<Map<string, string>>()); });",
      '};',
      '',
    ].join('\n'),
  });
});
after(() => removeProject(root));

test('a Map, Set or File in an answer is documented as {} with a warning naming what to send instead; in a request body, what to read instead', async () => {
  const result = await build(root, { write: false });
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`),
    [
      'routes/api.ts:4:26 warning SVC009 JSON writes a Map as {}, without its contents; send Object.fromEntries(map), or [...map] for keys that are not strings.',
      'routes/api.ts:5:29 warning SVC009 JSON writes a Set as {}, without its contents; send [...set].',
      'routes/api.ts:7:68 warning SVC009 JSON writes a File as {}, without its contents; send what the client needs of it (file.name, file.type, file.size), or its text (await file.text()).',
      'routes/api.ts:8:72 warning SVC009 JSON.parse never gives a Map: json<T>() returns the plain data the client sent; type the body as that data (an object or an array) and build the Map from it.',
    ],
  );
});
