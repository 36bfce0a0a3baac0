// A valid tree with groups, namespaces, nesting, aliases and both handler forms becomes
// the route table the runtime replays: ids in registration order, joined patterns,
// typed placeholders, resolved modules, middleware outer first.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from '../../compiler/build.ts';
import type { Route } from '../../compiler/ir.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { copyFixture, fixturesDir, runSvc } from './fixture.ts';

const handlerOf = (route: Route): string =>
  route.handler.kind === 'controller'
    ? `${route.handler.referencedBy} ${route.handler.module}#${route.handler.className}.${route.handler.method}`
    : route.handler.kind;

const summary = (route: Route) => ({
  id: route.id,
  route: `${route.method} ${route.pattern}`,
  handler: handlerOf(route),
  middleware: route.middleware.map((m) => `${m.referencedBy} ${m.module}#${m.className}${JSON.stringify(m.args)}`),
  prefix: route.prefix,
  at: `${route.loc.file}:${route.loc.line}:${route.loc.col}`,
});

describe('analyse: a valid tree', () => {
  it('yields the route table in registration order', async () => {
    const result = await build(join(fixturesDir, 'valid-app'), { write: false });
    assert.deepEqual(result.diagnostics, []);
    assert.ok(result.table);
    assert.deepEqual(result.table.files, ['routes/api.ts', 'routes/web.ts']);
    const auth = 'reference weave/Middleware/Auth.ts#Auth[]';
    const audit = 'name weave/Middleware/Audit.ts#Audit["admin"]';
    const application = result.table.routes.filter((r) => r.handler.kind !== 'builtin');
    assert.deepEqual(application.map(summary), [
      { id: 0, route: 'GET /', handler: 'closure', middleware: [], prefix: '', at: 'routes/api.ts:11:3' },
      { id: 1, route: 'GET /users/{id}', handler: 'reference weave/Controllers/UserController.ts#UserController.show', middleware: [], prefix: '', at: 'routes/api.ts:12:3' },
      { id: 2, route: 'GET /admin/dashboard', handler: 'name weave/Controllers/Admin/DashboardController.ts#DashboardController.index', middleware: [auth, audit], prefix: '/admin', at: 'routes/api.ts:14:5' },
      {
        id: 3,
        route: 'GET /admin/reports/{year}/{month?}',
        handler: 'name weave/Controllers/Admin/Reports/ReportController.ts#ReportController.show',
        middleware: [auth, audit, 'reference weave/Middleware/index.ts#Audit["reports"]'],
        prefix: '/admin/reports',
        at: 'routes/api.ts:16:7',
      },
      { id: 4, route: 'GET /outside', handler: 'closure', middleware: [], prefix: '', at: 'routes/api.ts:18:5' },
      { id: 5, route: 'POST /users', handler: 'name weave/Controllers/UserController.ts#UserController.store', middleware: [], prefix: '', at: 'routes/api.ts:20:3' },
      { id: 6, route: 'GET /hello/{name?}', handler: 'closure', middleware: [], prefix: '', at: 'routes/api.ts:21:3' },
      { id: 7, route: 'GET /about', handler: 'closure', middleware: [], prefix: '', at: 'routes/web.ts:4:3' },
      { id: 8, route: 'GET /list', handler: 'closure', middleware: [], prefix: '', at: 'routes/web.ts:6:3' },
      { id: 9, route: 'GET /caught', handler: 'closure', middleware: [], prefix: '', at: 'routes/web.ts:14:3' },
    ]);
  });

  it('types placeholders from the handler parameters and skips `this`', async () => {
    const { table } = await build(join(fixturesDir, 'valid-app'), { write: false });
    const byPattern = new Map(table!.routes.map((r) => [r.pattern, r]));
    assert.deepEqual(byPattern.get('/admin/reports/{year}/{month?}')!.segments, [
      { kind: 'literal', value: 'admin' },
      { kind: 'literal', value: 'reports' },
      { kind: 'param', name: 'year', optional: false, type: { kind: 'number' } },
      { kind: 'param', name: 'month', optional: true, type: { kind: 'string' } },
    ]);
    const hello = byPattern.get('/hello/{name?}')!;
    assert.deepEqual(hello.handler.kind === 'closure' && hello.handler.params.map((p) => [p.name, p.optional]), [['name', true]]);
    assert.deepEqual(hello.handler.kind === 'closure' && hello.handler.loc, { file: 'routes/api.ts', line: 6, col: 15 });
    const show = byPattern.get('/users/{id}')!;
    assert.deepEqual(show.handler.kind === 'controller' && show.handler.loc, { file: 'weave/Controllers/UserController.ts', line: 5, col: 3 });
  });

  it("types a generic handler's placeholder by its type parameter's constraint, and an unconstrained one as text", async () => {
    const root = await makeProject({
      'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/s/{id}', <T extends string>(id: T) => id);
  router.get('/n/{id}', <T extends number>(id: T) => ({ id }));
  router.get('/e/{id}', <T extends 'b' | 'a'>(id: T) => id);
  router.get('/u/{id}', <T,>(id: T) => String(id));
};
`,
    });
    try {
      const { diagnostics, table } = await build(root, { write: false });
      assert.deepEqual(diagnostics, []);
      const types = table!.routes
        .filter((r) => r.handler.kind === 'closure')
        .map((r) => {
          const last = r.segments.at(-1)!;
          return [r.pattern, last.kind === 'param' && last.type];
        });
      assert.deepEqual(types, [
        ['/s/{id}', { kind: 'string' }],
        ['/n/{id}', { kind: 'number' }],
        ['/e/{id}', { kind: 'enum', values: ['a', 'b'] }],
        ['/u/{id}', { kind: 'string' }],
      ]);
    } finally {
      await removeProject(root);
    }
  });

  it('reads literal numbers in middleware parameters as JavaScript does, exponents included', async () => {
    const root = await makeProject({
      'weave/Middleware/Takes.ts': 'export class Takes {\n  constructor(readonly values: number[]) {}\n  handle(_ctx: unknown, next: () => Promise<unknown>) {\n    return next();\n  }\n}\n',
      'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.group({ middleware: [['Takes', [[1e3, 2.5e-3, 1e-7, 0x10, 1_000, -1e21]]]] }, (r) => {
    r.get('/', () => 'home');
  });
};
`,
    });
    try {
      const { diagnostics, table } = await build(root, { write: false });
      assert.deepEqual(diagnostics, []);
      assert.deepEqual(table!.routes.find((r) => r.pattern === '/')!.middleware[0]!.args, [[1000, 0.0025, 1e-7, 16, 1000, -1e21]]);
    } finally {
      await removeProject(root);
    }
  });

  it('reads a const holding a primitive literal as its value in middleware parameters, here or imported; not an array const', async () => {
    const root = await makeProject({
      'weave/limits.ts': 'export const WINDOW = 60 as const;\nexport const PAIR = [5, 60];\n',
      'routes/web.ts': `import { RateLimitKnots, type Router } from 'svc';
import { PAIR, WINDOW as SECONDS } from '../weave/limits.ts';
const LIMIT = 10;
let changing = 20;
export default (router: Router) => {
  router.group({ middleware: [[RateLimitKnots, [LIMIT, SECONDS]]] }, (r) => {
    r.get('/', () => 'home');
  });
  router.group({ middleware: [[RateLimitKnots, [changing, 60]]] }, (r) => {
    r.get('/let', () => 'let');
  });
  router.group({ middleware: [[RateLimitKnots, [...PAIR]]] }, (r) => {
    r.get('/pair', () => 'pair');
  });
};
`,
    });
    try {
      const { diagnostics, table } = await build(root, { write: false });
      assert.deepEqual(table!.routes.find((r) => r.pattern === '/')!.middleware[0]!.args, [10, 60]);
      assert.deepEqual(
        diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`),
        ['9:49 SVC006', '12:49 SVC006'],
        'a let, and an array const spread',
      );
    } finally {
      await removeProject(root);
    }
  });

  it('builds with the real CLI', async () => {
    const root = await copyFixture('valid-app');
    try {
      const run = await runSvc(root, ['build']);
      assert.equal(run.stderr, '');
      assert.equal(run.code, 0);
    } finally {
      await removeProject(root);
    }
  });
});
