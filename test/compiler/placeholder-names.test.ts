// Placeholder names use letters, digits, `-` and `_` (SPEC §2): letters of any script.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startProject } from '../support/server.ts';

const app = await startProject({
  'routes/api.ts': [
    "import type { Router } from 'svc';",
    '',
    'export default (router: Router) => {',
    "  router.get('/u/{ü}/{名前}/{post-id}/{id_2}', (a: string, b: string, c: string, d: string) => ({ a, b, c, d }));",
    '};',
    '',
  ].join('\n'),
});
after(() => app.close());

test('names in any script build, and their segments reach the handler in order', async () => {
  const response = await fetch(`${app.url}/u/x/%E5%90%8D/p-1/7`);
  assert.deepEqual(await response.json(), { a: 'x', b: '名', c: 'p-1', d: '7' });
});

test('the API document names the parameters as the pattern does', async () => {
  const document = JSON.parse(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8')) as { paths: Record<string, { get: { parameters: Array<{ name: string }> } }> };
  assert.deepEqual(
    document.paths['/u/{ü}/{名前}/{post-id}/{id_2}']!.get.parameters.map((parameter) => parameter.name),
    ['ü', '名前', 'post-id', 'id_2'],
  );
});
