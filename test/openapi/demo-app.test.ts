// The repository's own demo application (routes/ and weave/ at the root) documents
// every application route in a valid OpenAPI 3.1 document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../../compiler/build.ts';
import { builtinRoutes } from '../../compiler/config/builtin-routes.ts';
import { emitOpenApi, readApiInfo } from '../../compiler/emit/openapi/index.ts';
import { repoRoot } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

test('the demo application yields a valid OpenAPI 3.1 document covering its routes', async () => {
  const result = await build(repoRoot, { write: false });
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), []);
  const table = result.table!;
  const document = await assertValidOpenApi(emitOpenApi(table, await readApiInfo(repoRoot)));

  const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
  const application = table.routes.filter((r) => r.handler.kind !== 'builtin');
  assert.ok(application.length > 0, 'the demo application has routes');
  const expected = application.flatMap((r) => {
    const required = `${r.method} ${r.pattern.replace('?}', '}')}`;
    return r.pattern.endsWith('?}') ? [`${r.method} ${r.pattern.replace(/\/\{[^/]+\?\}$/, '') || '/'}`, required] : [required];
  });
  assert.deepEqual(documented.sort(), expected.sort());
  for (const builtin of builtinRoutes(table.config, 0)) assert.equal(document.paths[builtin.pattern], undefined);
});
