// The repository's own demo application (routes/ and weave/ at the root) documents
// every application route in a valid OpenAPI 3.1 document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../../compiler/build.ts';
import { builtinRoutes } from '../../compiler/config/builtin-routes.ts';
import { emitOpenApi, readApiInfo } from '../../compiler/emit/openapi/index.ts';
import { repoRoot } from '../support/project.ts';
import { assertValidOpenApi } from './validate.ts';

const result = await build(repoRoot, { write: false });
const text = result.table && emitOpenApi(result.table, await readApiInfo(repoRoot));

test('the demo application yields a valid OpenAPI 3.1 document covering its routes', async () => {
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), []);
  const table = result.table!;
  const document = await assertValidOpenApi(text!);

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

test("the demo's handler bodies show in its document: the JSON bodies its POST routes read, a query parameter, the 201 and the errors", () => {
  const document = JSON.parse(text!) as { paths: Record<string, Record<string, any>> };
  for (const path of ['/api/users', '/api/notes']) {
    const store = document.paths[path]!.post;
    assert.equal(store.requestBody.required, true);
    assert.deepEqual(Object.keys(store.requestBody.content), ['application/json']);
    assert.deepEqual(Object.keys(store.responses).sort(), ['201', '400']);
  }
  assert.deepEqual(document.paths['/api/users']!.get.parameters, [{ name: 'name', in: 'query', schema: { type: 'string' } }]);
  assert.deepEqual(document.paths['/api/users/{id}']!.get.responses['404'], { $ref: '#/components/responses/Problem' });
  const dashboard = document.paths['/admin/dashboard']!.get.responses;
  assert.deepEqual(Object.keys(dashboard).sort(), ['200', '401', '429'], 'AuthMiddleware throws 401; RateLimitKnots answers 429');
});
