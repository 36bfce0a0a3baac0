// `svc route list` and `svc route docs`, run as a user runs them: the real CLI in a
// project tree under test/.tmp/.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';
import { assertValidOpenApi } from '../openapi/validate.ts';

const root = await makeProject({
  'package.json': JSON.stringify({ name: 'route-commands', version: '3.1.4', private: true, type: 'module' }),
  'routes/api.ts': [
    "import type { Router } from 'svc';",
    "import { Throttle } from '../weave/Middleware/Throttle.ts';",
    "import { UserController } from '../weave/Controllers/UserController.ts';",
    '',
    'export default (router: Router) => {',
    "  router.group({ prefix: '/users', middleware: [[Throttle, [5, 60]]] }, (r) => {",
    "    r.get('/', [UserController, 'index']);",
    "    r.get('/{id}', [UserController, 'show']);",
    "    r.delete('/{id}', ['UserController', 'destroy']);",
    '  });',
    "  router.post('/ping', () => 'pong');",
    '};',
    '',
  ].join('\n'),
  'routes/web.ts': "import type { Router } from 'svc';\n\nexport default (router: Router) => {\n  router.get('/', () => 'home');\n};\n",
  'weave/Middleware/Throttle.ts': [
    "import type { Context, Middleware, Next } from 'svc';",
    '',
    'export class Throttle implements Middleware {',
    '  constructor(readonly limit: number, readonly windowSeconds: number) {}',
    '  handle(_ctx: Context, next: Next) {',
    '    return next();',
    '  }',
    '}',
    '',
  ].join('\n'),
  'weave/Controllers/UserController.ts': [
    "import { Controller } from 'svc';",
    '',
    'export class UserController extends Controller {',
    '  index(): string[] {',
    '    return [];',
    '  }',
    '  show(id: number): { id: number } {',
    '    return { id };',
    '  }',
    '  destroy(_id: number): void {}',
    '}',
    '',
  ].join('\n'),
});
after(() => removeProject(root));

function run(cwd: string, args: string[]) {
  const done = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], { cwd, encoding: 'utf8' });
  return { code: done.status, stdout: done.stdout, stderr: done.stderr };
}
const svc = (...args: string[]) => run(root, args);

const applicationRows = [
  'GET     /users       UserController.index    Throttle(5, 60)  routes/api.ts:7:5',
  'GET     /users/{id}  UserController.show     Throttle(5, 60)  routes/api.ts:8:5',
  'DELETE  /users/{id}  UserController.destroy  Throttle(5, 60)  routes/api.ts:9:5',
  'POST    /ping        closure                 -                routes/api.ts:11:3',
  'GET     /            closure                 -                routes/web.ts:4:3',
];

test('route list prints method, path, handler, middleware and source as a table', () => {
  const { code, stdout } = svc('route', 'list');
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^METHOD\s+PATH\s+HANDLER\s+MIDDLEWARE\s+SOURCE$/);
  assert.deepEqual(lines.slice(1, 1 + applicationRows.length).map((l) => l.replace(/\s+/g, ' ')), applicationRows.map((l) => l.replace(/\s+/g, ' ')));
});

test('route list marks the built-in endpoints', () => {
  const { stdout } = svc('route', 'list', '--path', '/svc');
  assert.match(stdout, /^GET\s+\/svc\/health\s+builtin:health\s+-\s+svc\.json:1:1$/m);
  assert.match(stdout, /^GET\s+\/svc\/docs\s+builtin:docs\s/m);
});

test('route list shows a control character of a pattern escaped, and --json keeps it as it is', async () => {
  // `\x1b[2J` would clear the terminal the table is printed on.
  const project = await makeProject({ 'routes/api.ts': "import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/tty/\\x1b[2J', () => 1);\n};\n" });
  try {
    const table = run(project, ['route', 'list', '--path', '/tty']).stdout;
    assert.match(table, /^GET\s+\/tty\/\\u001b\[2J\s+closure/m);
    assert.doesNotMatch(table, /\x1b/);
    assert.equal((JSON.parse(run(project, ['route', 'list', '--json', '--path', '/tty']).stdout) as Array<{ path: string }>)[0]!.path, '/tty/\x1b[2J');
  } finally {
    await removeProject(project);
  }
});

test('route list --json gives the same rows as data', () => {
  const { code, stdout } = svc('route', 'list', '--json', '--path', '/users');
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), [
    { method: 'GET', path: '/users', handler: 'UserController.index', middleware: ['Throttle(5, 60)'], source: 'routes/api.ts:7:5', builtin: false },
    { method: 'GET', path: '/users/{id}', handler: 'UserController.show', middleware: ['Throttle(5, 60)'], source: 'routes/api.ts:8:5', builtin: false },
    { method: 'DELETE', path: '/users/{id}', handler: 'UserController.destroy', middleware: ['Throttle(5, 60)'], source: 'routes/api.ts:9:5', builtin: false },
  ]);
});

test('route list filters by method (any case) and by path prefix', () => {
  const paths = (...args: string[]) => (JSON.parse(svc('route', 'list', '--json', ...args).stdout) as Array<{ method: string; path: string }>).map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(paths('--method', 'delete'), ['DELETE /users/{id}']);
  assert.deepEqual(paths('--method', 'GET', '--path', '/users'), ['GET /users', 'GET /users/{id}']);
  assert.deepEqual(paths('--path', 'ping'), ['POST /ping']);
  assert.deepEqual(paths('--method', 'PUT'), []);
});

test('route list rejects an unknown method, and route an unknown action, with exit 2 and help', () => {
  const method = svc('route', 'list', '--method', 'FETCH');
  assert.equal(method.code, 2);
  assert.match(method.stderr, /--method must be one of GET, POST, PUT, PATCH, DELETE, OPTIONS, got "FETCH"/);
  const action = svc('route', 'show');
  assert.equal(action.code, 2);
  assert.match(action.stderr, /Unknown route action "show"/);
  assert.match(action.stderr, /Usage:/);
});

test('route docs writes shoebox/outsole/openapi.json and leaves .svc/ alone', async () => {
  const { code, stdout } = svc('route', 'docs');
  assert.equal(code, 0, stdout);
  // It says what it wrote: the document and the Swagger UI the README names with it.
  assert.equal(stdout, 'svc: wrote shoebox/outsole/openapi.json and the Swagger UI assets in shoebox/outsole/docs/\n');
  await stat(join(root, 'shoebox', 'outsole', 'docs', 'swagger-ui-bundle.js'));
  const document = await assertValidOpenApi(await readFile(join(root, 'shoebox', 'outsole', 'openapi.json'), 'utf8'));
  assert.deepEqual(Object.keys(document.paths).sort(), ['/', '/ping', '/users', '/users/{id}']);
  await assert.rejects(stat(join(root, '.svc')), { code: 'ENOENT' });
});

test('route commands print the diagnostics and exit 1 when the project does not compile', async () => {
  const broken = await makeProject({ 'routes/api.ts': "import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/a/{x}', () => 1);\n};\n" });
  try {
    for (const action of ['list', 'docs']) {
      const { code, stderr } = run(broken, ['route', action]);
      assert.equal(code, 1);
      assert.match(stderr, /routes\/api\.ts:3:\d+ - error SVC003/);
    }
    // A script reading the routes as JSON reads why there are none in JSON too, as `svc build --json` prints it.
    const { code, stdout, stderr } = run(broken, ['route', 'list', '--json']);
    assert.equal(code, 1);
    assert.equal(stderr, '');
    const { diagnostics } = JSON.parse(stdout) as { diagnostics: Array<{ code: string; path: string; line: number }> };
    assert.deepEqual(diagnostics.map((d) => `${d.path}:${d.line} ${d.code}`), ['routes/api.ts:3 SVC003']);
  } finally {
    await removeProject(broken);
  }
});
