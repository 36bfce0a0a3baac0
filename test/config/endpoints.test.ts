// Built-in endpoint routes from svc.json, and SVC007 when one lands on an application
// route: the real analyser on a project tree, its table extended as the build does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../../compiler/build.ts';
import { loadConfig } from '../../compiler/config/index.ts';
import { builtinRoutes } from '../../compiler/config/builtin-routes.ts';
import { checkEndpoints } from '../../compiler/check/endpoints.ts';
import { formatDiagnostics } from '../../compiler/diagnostics.ts';
import type { RouteTable } from '../../compiler/ir.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { makeProject, removeProject } from '../support/project.ts';

async function tableWithBuiltins(files: Record<string, string>): Promise<RouteTable> {
  const root = await makeProject(files);
  try {
    const { table } = await build(root, { write: false });
    const { config, locations } = await loadConfig(root);
    assert.ok(table && config);
    return { ...table, routes: [...table.routes, ...builtinRoutes(config, table.routes.length, locations)] };
  } finally {
    await removeProject(root);
  }
}

test('the four endpoints become GET routes after the application routes, docs with its assets', () => {
  const routes = builtinRoutes({ ...DEFAULT_CONFIG, endpoints: { ...DEFAULT_CONFIG.endpoints, docs: 'internal/docs' } }, 7);
  assert.deepEqual(
    routes.map((r) => [r.id, r.method, r.pattern, r.handler.kind === 'builtin' && r.handler.name, `${r.loc.file}:${r.loc.line}:${r.loc.col}`]),
    [
      [7, 'GET', '/internal/docs', 'docs', 'svc.json:1:1'],
      [8, 'GET', '/internal/docs/{asset}', 'docs-asset', 'svc.json:1:1'],
      [9, 'GET', '/svc/health', 'health', 'svc.json:1:1'],
      [10, 'GET', '/svc/dashboard', 'dashboard', 'svc.json:1:1'],
      [11, 'GET', '/svc/metrics', 'metrics', 'svc.json:1:1'],
    ],
  );
  assert.deepEqual(routes[1].segments, [
    { kind: 'literal', value: 'internal' },
    { kind: 'literal', value: 'docs' },
    { kind: 'param', name: 'asset', optional: false, type: { kind: 'string' } },
  ]);
});

test('an endpoint on an application route is SVC007 at its svc.json key, naming the route', async () => {
  const table = await tableWithBuiltins({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/docs/{file?}', (file?: string) => file ?? 'index');
  router.post('/status', () => null);
  router.get('/status', () => 'up');
  router.get('/svc/metrics/{name}', (name: string) => name);
};
`,
    'svc.json': `{
  "endpoints": {
    "docs": "docs",
    "health": "/status/"
  }
}
`,
  });
  assert.equal(
    formatDiagnostics(checkEndpoints(table)),
    [
      'svc.json:3:5 - error SVC007: endpoints.docs: the built-in docs endpoint GET /docs collides with the route GET /docs/{file?} at routes/web.ts:4:3',
      '    choose another path for the endpoint in svc.json, or move the route',
      'svc.json:3:5 - error SVC007: endpoints.docs: the built-in docs-asset endpoint GET /docs/{asset} collides with the route GET /docs/{file?} at routes/web.ts:4:3',
      '    choose another path for the endpoint in svc.json, or move the route',
      'svc.json:4:5 - error SVC007: endpoints.health: the built-in health endpoint GET /status collides with the route GET /status at routes/web.ts:6:3',
      '    choose another path for the endpoint in svc.json, or move the route',
    ].join('\n'),
  );
});

test('endpoints beside application routes are fine', async () => {
  const table = await tableWithBuiltins({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/svc', () => 'svc');
  router.get('/svc/{page}', (page: string) => page);
  router.post('/svc/health', () => null);
};
`,
  });
  assert.deepEqual(checkEndpoints(table), []);
});
