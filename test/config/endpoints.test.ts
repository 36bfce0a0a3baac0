// Built-in endpoint routes from svc.json, and SVC007 when one lands on an application
// route, through the real `svc build`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../../compiler/build.ts';
import { builtinRoutes } from '../../compiler/config/builtin-routes.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';
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
  const root = await makeProject({
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
  try {
    const result = svc(root, ['build']);
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr.trim(),
      [
        'svc.json:3:5 - error SVC007: endpoints.docs: the built-in docs endpoint GET /docs collides with the route GET /docs/{file?} at routes/web.ts:4:3',
        '    choose another path for the endpoint in svc.json, or move the route',
        'svc.json:3:5 - error SVC007: endpoints.docs: the built-in docs-asset endpoint GET /docs/{asset} collides with the route GET /docs/{file?} at routes/web.ts:4:3',
        '    choose another path for the endpoint in svc.json, or move the route',
        'svc.json:4:5 - error SVC007: endpoints.health: the built-in health endpoint GET /status collides with the route GET /status at routes/web.ts:6:3',
        '    choose another path for the endpoint in svc.json, or move the route',
      ].join('\n'),
    );
  } finally {
    await removeProject(root);
  }
});

test('two endpoints on one path are reported once, by svc.json validation; a route there too collides with each', async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/status', () => 'up');
};
`,
    'svc.json': '{\n  "endpoints": { "health": "ping", "metrics": "ping", "dashboard": "status", "docs": "status" }\n}\n',
  });
  try {
    const { diagnostics } = await build(root, { write: false });
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.text}`),
      [
        'svc.json:2:55 SVC007 endpoints.dashboard: /status is already the path of endpoints.docs',
        'svc.json:2:36 SVC007 endpoints.metrics: /ping is already the path of endpoints.health',
        'svc.json:2:78 SVC007 endpoints.docs: the built-in docs endpoint GET /status collides with the route GET /status at routes/web.ts:4:3',
        'svc.json:2:55 SVC007 endpoints.dashboard: the built-in dashboard endpoint GET /status collides with the route GET /status at routes/web.ts:4:3',
      ],
    );
  } finally {
    await removeProject(root);
  }
});

test('a written endpoint on the path of a default one is reported at the written key', async () => {
  const root = await makeProject({
    'routes/web.ts': "import type { Router } from 'svc';\n\nexport default (router: Router) => {\n  router.get('/', () => 'home');\n};\n",
    'svc.json': '{\n  "endpoints": {\n    "docs": "svc/health"\n  }\n}\n',
  });
  try {
    const { diagnostics } = await build(root, { write: false });
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.text}`),
      ['svc.json:3:5 SVC007 endpoints.docs: /svc/health is already the path of endpoints.health'],
    );
  } finally {
    await removeProject(root);
  }
});

test('an endpoint on a path a route placeholder takes is an SVC007 warning; not when the placeholder type refuses it', async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/users/{id}', (id: number) => id);
  router.get('/pages/{slug}', (slug: string) => slug);
  router.get('/flags/{on}', (on: boolean) => on);
};
`,
    'svc.json': '{\n  "endpoints": { "health": "users/health", "metrics": "pages/metrics", "dashboard": "flags/true" }\n}\n',
  });
  try {
    const { ok, diagnostics } = await build(root, { write: false });
    assert.ok(ok);
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`),
      [
        'svc.json:2:72 warning SVC007 endpoints.dashboard: the built-in dashboard endpoint GET /flags/true answers a path the route GET /flags/{on} at routes/web.ts:6:3 matches too',
        'svc.json:2:44 warning SVC007 endpoints.metrics: the built-in metrics endpoint GET /pages/metrics answers a path the route GET /pages/{slug} at routes/web.ts:5:3 matches too',
      ],
    );
  } finally {
    await removeProject(root);
  }
});

test('an endpoint where the docs endpoint serves its files (openapi.json, swagger-ui.css) is SVC007; one deeper builds', async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/', () => 'home');
};
`,
    'svc.json': '{\n  "endpoints": { "metrics": "svc/docs/openapi.json", "health": "/svc/docs/swagger-ui.css/", "dashboard": "svc/docs/more/dashboard" }\n}\n',
  });
  try {
    const result = svc(root, ['build']);
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr.trim(),
      [
        'svc.json:2:18 - error SVC007: endpoints.metrics: /svc/docs/openapi.json is the path of a file of endpoints.docs (/svc/docs/<file>); choose a path outside it',
        'svc.json:2:54 - error SVC007: endpoints.health: /svc/docs/swagger-ui.css is the path of a file of endpoints.docs (/svc/docs/<file>); choose a path outside it',
      ].join('\n'),
    );
  } finally {
    await removeProject(root);
  }
});

test("a GET route on a file the docs page loads is SVC007 (its literal path would beat the docs endpoint's); other files and methods build", async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/api/docs/swagger-ui.css', () => 'mine');
  router.get('/api/docs/openapi.json/{v?}', (v?: string) => v ?? 'mine');
  router.post('/api/docs/swagger-ui-bundle.js', () => 'a POST takes nothing from the page');
  router.get('/api/docs/notes.txt', () => 'a file the page does not load');
};
`,
    'svc.json': '{\n  "endpoints": { "docs": "api/docs" }\n}\n',
  });
  try {
    const { diagnostics } = await build(root, { write: false });
    assert.deepEqual(
      diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.text}`),
      [
        'svc.json:2:18 error SVC007 endpoints.docs: the route GET /api/docs/swagger-ui.css at routes/web.ts:4:3 takes the place of swagger-ui.css, a file the built-in docs page loads (/api/docs/{asset}), and Swagger UI would not load',
        'svc.json:2:18 error SVC007 endpoints.docs: the route GET /api/docs/openapi.json/{v?} at routes/web.ts:5:3 takes the place of openapi.json, a file the built-in docs page loads (/api/docs/{asset}), and Swagger UI would not load',
      ],
    );
  } finally {
    await removeProject(root);
  }
});

test('endpoints beside application routes build, appended to the table and pointing at svc.json', async () => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/svc', () => 'svc');
  router.get('/svc/{page}', (page: string) => page);
  router.post('/svc/health', () => null);
};
`,
    'svc.json': '{\n  "endpoints": { "metrics": "metrics" }\n}\n',
  });
  try {
    const { ok, diagnostics, table } = await build(root, { write: false });
    assert.ok(ok, JSON.stringify(diagnostics));
    const builtins = table!.routes.filter((route) => route.handler.kind === 'builtin');
    assert.deepEqual(
      builtins.map((r) => `${r.id} ${r.method} ${r.pattern} ${r.loc.file}:${r.loc.line}:${r.loc.col}`),
      ['3 GET /svc/docs svc.json:1:1', '4 GET /svc/docs/{asset} svc.json:1:1', '5 GET /svc/health svc.json:1:1', '6 GET /svc/dashboard svc.json:1:1', '7 GET /metrics svc.json:2:18'],
    );
  } finally {
    await removeProject(root);
  }
});
