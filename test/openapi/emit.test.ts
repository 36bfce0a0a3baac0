// The OpenAPI document of the fixture app (every type form, closures and controllers,
// groups, optional and typed placeholders), from the real analysis of its route files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from '../../compiler/build.ts';
import { builtinRoutes } from '../../compiler/config/builtin-routes.ts';
import { emitOpenApi, readApiInfo } from '../../compiler/emit/openapi/index.ts';
import type { RouteTable } from '../../compiler/ir.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';
import { assertSnapshot } from './snapshot.ts';
import { assertValidOpenApi } from './validate.ts';

const fixture = join(repoRoot, 'test', 'fixtures', 'openapi', 'app');

async function fixtureTable(): Promise<RouteTable> {
  const result = await build(fixture, { write: false });
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === 'error'), []);
  return result.table!;
}

const table = await fixtureTable();
const text = emitOpenApi(table, await readApiInfo(fixture));
type Operation = Record<string, any>;
const doc = JSON.parse(text) as { info: unknown; paths: Record<string, Record<string, Operation>>; tags: unknown; components: Record<string, any> };
const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));

test('the document validates as OpenAPI 3.1 and matches its snapshot', async () => {
  await assertValidOpenApi(text);
  await assertSnapshot(text, join(fixture, '..', 'expected', 'openapi.json'));
});

test('info comes from the project package.json', () => {
  assert.deepEqual(doc.info, { title: 'openapi-fixture', version: '1.2.3', description: 'Every type form the OpenAPI generator handles.' });
});

test('a route with an optional placeholder appears as two paths with distinct operationIds', () => {
  assert.equal(doc.paths['/hello']!.get!.operationId, 'api.getHello');
  assert.equal(doc.paths['/hello']!.get!.parameters, undefined);
  assert.equal(doc.paths['/hello/{name}']!.get!.operationId, 'api.getHelloByName');
  assert.deepEqual(doc.paths['/hello/{name}']!.get!.parameters, [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }]);
  assert.equal(doc.paths['/types/count']!.get!.operationId, 'TypesController.optionalNumber');
  assert.equal(doc.paths['/types/count/{count}']!.get!.operationId, 'TypesController.optionalNumber_2');
});

test('operationIds are unique', () => {
  const ids = operations.map((op) => op.operationId);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(ids.includes('UserController.show') && ids.includes('web.getAdminStatsByDay') && ids.includes('web.getRoot'));
});

test('typed placeholders are documented as the dispatcher enforces them, with a 400', () => {
  const show = doc.paths['/users/{id}']!.get!;
  assert.deepEqual(show.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'number' }, description: "The user's id." }]);
  assert.deepEqual(show.responses['400'], { $ref: '#/components/responses/BadParameter' });
  const params = doc.paths['/types/params/{id}/{status}/{role}/{name}']!.get!.parameters as Operation[];
  assert.deepEqual(params.map((p) => p.schema), [
    { type: 'number' },
    { type: 'string', enum: ['draft', 'published'] },
    { type: 'string', enum: ['admin', 'member'] },
    { type: 'string' },
  ]);
  assert.equal(doc.paths['/hello/{name}']!.get!.responses['400'], undefined);
  assert.ok(doc.components.responses.BadParameter.content['application/problem+json']);
});

test("a route file's tag and a group prefix's of the same name say both what they hold", async () => {
  const root = await makeProject({
    'routes/web.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'home'); };\n",
    'routes/api.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.group({ prefix: '/web' }, (r) => { r.get('/hooks', () => 'ok'); }); };\n",
  });
  try {
    const { table } = await build(root, { write: false });
    const { tags } = JSON.parse(emitOpenApi(table!)) as { tags: Array<{ name: string; description: string }> };
    assert.deepEqual(tags.find((t) => t.name === 'web'), { name: 'web', description: 'Routes in routes/web.ts; Routes under /web' });
    assert.deepEqual(tags.find((t) => t.name === 'api'), { name: 'api', description: 'Routes in routes/api.ts' });
  } finally {
    await removeProject(root);
  }
});

test('tags come from the route file and the group prefix', () => {
  assert.deepEqual(doc.paths['/types/text']!.get!.tags, ['api', 'types']);
  assert.deepEqual(doc.paths['/admin/stats/{day}']!.get!.tags, ['web', 'admin']);
  assert.deepEqual(doc.paths['/']!.get!.tags, ['web']);
  assert.deepEqual((doc.tags as Array<{ name: string }>).map((t) => t.name), ['admin', 'api', 'types', 'web']);
});

test('summaries and descriptions come from JSDoc, on methods and on closure registrations', () => {
  const ping = doc.paths['/ping']!.get!;
  assert.deepEqual([ping.summary, ping.description, ping.deprecated], ['Health of the API.', 'Answers with a fixed object.', true]);
  assert.equal(doc.paths['/users/{id}']!.get!.summary, 'Show a user.');
  assert.equal(doc.paths['/users/{id}']!.get!.deprecated, undefined);
  assert.equal(doc.paths['/']!.get!.summary, 'The home page.');
  assert.equal(doc.paths['/admin']!.get!.summary, undefined);
});

test('responses: 204 for nothing, and the media type the runtime sends', () => {
  assert.deepEqual(doc.paths['/types/nothing']!.delete!.responses, { '204': { description: 'No content.' } });
  assert.deepEqual(doc.paths['/types/nothing-later']!.delete!.responses, { '204': { description: 'No content.' } });
  const media = (path: string, status = '200') => Object.keys(doc.paths[path]!.get!.responses[status].content);
  assert.deepEqual(media('/types/text'), ['text/html']);
  assert.deepEqual(media('/types/objects'), ['application/json']);
  assert.deepEqual(media('/types/binary'), ['application/octet-stream']);
  assert.deepEqual(Object.keys(doc.paths['/types/response']!.get!.responses), ['default']);
  assert.deepEqual(media('/types/response', 'default'), ['*/*']);
  assert.deepEqual(Object.keys(doc.paths['/types/nullable']!.get!.responses), ['200', '204']);
  assert.deepEqual(doc.paths['/types/nullable']!.get!.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/User' });
  assert.deepEqual(doc.paths['/types/promise']!.get!.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/Team' });
});

test('built-in endpoints are left out', () => {
  const withBuiltins = { ...table, routes: [...table.routes, ...builtinRoutes(table.config, table.routes.length)] };
  assert.equal(emitOpenApi(withBuiltins, doc.info as never), text);
});

test('the same project always yields the same bytes, keys sorted', async () => {
  assert.equal(emitOpenApi(await fixtureTable(), await readApiInfo(fixture)), text);
  const keys = Object.keys(doc.paths);
  assert.deepEqual(keys, [...keys].sort());
  assert.deepEqual(Object.keys(doc), ['components', 'info', 'openapi', 'paths', 'tags']);
});
