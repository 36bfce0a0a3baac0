// `svc tread` keeps each route file's analysis between builds (compiler/analyse/file-cache.ts).
// After every kind of edit, what an incremental build decides (diagnostics, and the
// generated files) must be exactly what `svc build` gives for a copy of the same tree in
// a process of its own.
import assert from 'node:assert/strict';
import { cp, readFile, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../../compiler/build.ts';
import { sortDiagnostics } from '../../compiler/diagnostics.ts';
import { emitFiles } from '../../compiler/emit/index.ts';
import { readApiInfo } from '../../compiler/emit/openapi/index.ts';
import type { RouteTable } from '../../compiler/ir.ts';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';

const model = (extra = '') => `export interface Item { id: number; name: string${extra} }
export interface Page<T> { items: T[]; next?: string }
`;

const controller = (returns = 'Page<Item>') => `import { Controller } from 'svc';
import type { Item, Page } from '../Models.ts';
export class ItemController extends Controller {
  list(): ${returns} { return null!; }
  show(id: number): Item { return { id, name: '' }; }
}
`;

const api = (path = '/items') => `import type { Router } from 'svc';
import { ItemController } from '../weave/Controllers/ItemController.ts';
export default (router: Router) => {
  router.get('${path}', [ItemController, 'list']);
  router.get('/items/{id}', [ItemController, 'show']);
  router.get('/named', ['TagController', 'index']);
};
`;

const web = `import type { Router } from 'svc';
import type { Item } from '../weave/Models.ts';
export default (router: Router) => {
  router.get('/', (): Item[] => []);
};
`;

let root: string;

before(async () => {
  root = await makeProject({ 'routes/api.ts': api(), 'routes/web.ts': web, 'weave/Models.ts': model(), 'weave/Controllers/ItemController.ts': controller() });
  await build(root, { write: false, incremental: true });
});

after(async () => {
  await removeProject(root);
  await removeProject(`${root}-fresh`);
});

const COMPARED = ['dispatcher.ts', 'manifest.json', 'openapi.json', 'entry.ts'];

/** Builds `at` incrementally, and a copy of it from scratch in a process of its own: both must agree. */
async function assertSameAsFresh(at = root): Promise<{ ok: boolean; table: RouteTable; diagnostics: unknown[] }> {
  const fresh = `${at}-fresh`;
  const { ok, table, diagnostics } = await build(at, { write: false, incremental: true });
  await rm(fresh, { recursive: true, force: true });
  await cp(at, fresh, { recursive: true });
  const expected = svc(fresh, ['build', '--json']);
  assert.ok(expected.stdout, expected.stderr);
  const sorted = JSON.parse(JSON.stringify(sortDiagnostics(diagnostics)));
  assert.deepEqual(sorted, (JSON.parse(expected.stdout).diagnostics as Array<Record<string, unknown>>).map(({ path, message, ...d }) => d));
  assert.equal(ok, expected.status === 0);
  if (ok) {
    const files = emitFiles(table, await readApiInfo(at));
    for (const name of COMPARED) assert.equal(files[name], await readFile(join(fresh, '.svc', name), 'utf8'), name);
  }
  return { ok, table, diagnostics: sorted };
}

test('a route file edit: only the path changes', async () => {
  await writeFiles(root, { 'routes/api.ts': api('/things') });
  const { table } = await assertSameAsFresh();
  assert.ok(table.routes.some((r) => r.pattern === '/things'));
});

test('a model edit reaches the routes of unchanged route files', async () => {
  await writeFiles(root, { 'weave/Models.ts': model('; price: number') });
  const { table } = await assertSameAsFresh();
  assert.ok('price' in (table.schemas.Item!.properties as object));
});

test('a controller edit changes the schemas its routes document', async () => {
  await writeFiles(root, { 'weave/Controllers/ItemController.ts': controller('Item[]') });
  const { table } = await assertSameAsFresh();
  assert.equal(table.schemas.Page_Item_, undefined, 'a component no route reaches any more is dropped');
});

test('a controller named by string that did not exist is found once it is written', async () => {
  const { diagnostics: before } = await build(root, { write: false, incremental: true });
  assert.ok(before.some((d) => d.code === 'SVC004'));
  await writeFiles(root, {
    'weave/Controllers/TagController.ts': `import { Controller } from 'svc';\nexport class TagController extends Controller {\n  index(): string[] { return []; }\n}\n`,
  });
  const { ok, diagnostics } = await assertSameAsFresh();
  assert.equal(ok, true, JSON.stringify(diagnostics));
});

test('a route file imported by another one: an edit reaches its importer', async () => {
  await writeFiles(root, {
    'routes/shared.ts': `import type { Router } from 'svc';\nexport const hello = (): { hello: string } => ({ hello: 'world' });\nexport default (router: Router) => {};\n`,
    'routes/web.ts': web.replace("import type { Router } from 'svc';", "import type { Router } from 'svc';\nimport { hello } from './shared.ts';").replace("  router.get('/', (): Item[] => []);", "  router.get('/', (): Item[] => []);\n  router.get('/hello', hello);"),
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'routes/shared.ts': `import type { Router } from 'svc';\nexport const hello = (): { hello: number } => ({ hello: 1 });\nexport default (router: Router) => {};\n` });
  const { table } = await assertSameAsFresh();
  const route = table.routes.find((r) => r.pattern === '/hello')!;
  assert.deepEqual(route.handler.kind !== 'builtin' && route.handler.returns, { json: { type: 'object', properties: { hello: { type: 'number' } }, required: ['hello'] } });
});

test('a route file removed and one added', async () => {
  await rm(`${root}/routes/shared.ts`);
  await writeFiles(root, {
    'routes/web.ts': web,
    'routes/zzz.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.post('/zzz', (): { ok: boolean } => ({ ok: true })); };\n`,
  });
  const { table } = await assertSameAsFresh();
  assert.deepEqual(table.files, ['routes/api.ts', 'routes/web.ts', 'routes/zzz.ts']);
});

test('a broken edit, then the fix', async () => {
  await writeFiles(root, { 'routes/web.ts': web.replace("router.get('/'", "router.get('/named'") });
  const broken = await assertSameAsFresh();
  assert.equal(broken.ok, false);
  await writeFiles(root, { 'routes/web.ts': web });
  assert.equal((await assertSameAsFresh()).ok, true);
});

test('an imported controller deleted, then put back (an undo, a git checkout)', async () => {
  const file = 'weave/Controllers/ItemController.ts';
  const text = await readFile(join(root, file), 'utf8');
  await rm(join(root, file));
  assert.equal((await assertSameAsFresh()).ok, false);
  await writeFiles(root, { [file]: text });
  const { ok, diagnostics } = await assertSameAsFresh();
  assert.equal(ok, true, JSON.stringify(diagnostics));
});

test('an edit that keeps the size and the modification time (rsync -t, touch -r)', async () => {
  const file = join(root, 'routes/api.ts');
  const { mtime } = await stat(file);
  const rewrite = async (path: string) => {
    await writeFiles(root, { 'routes/api.ts': api(path) });
    await utimes(file, mtime, mtime);
  };
  await rewrite('/thing1');
  await build(root, { write: false, incremental: true });
  await rewrite('/thing2');
  const { table } = await assertSameAsFresh();
  assert.ok(table.routes.some((r) => r.pattern === '/thing2'));
});

test("a union's order does not depend on what another route file met first", async () => {
  // TypeScript orders union members by when its checker first met each type: `'z'` and
  // `Item` in aaa.ts (analysed first) would lead the unions of api.ts, whose analysis is
  // kept when only aaa.ts changes; a fresh build then orders them otherwise.
  const early = (returns: string) => `import type { Router } from 'svc';
import type { Item } from '../weave/Models.ts';
export default (router: Router) => {
  router.get('/early', (): ${returns} => null!);
};
`;
  await writeFiles(root, {
    'routes/aaa.ts': early("{ z: 'z'; item: Item }"),
    'routes/api.ts': `import type { Router } from 'svc';
import type { Item, Page } from '../weave/Models.ts';
export default (router: Router) => {
  router.get('/sorted/{by}', (by: 'x' | 'y' | 'z'): { by: typeof by; either: Page<Item> | Item } => null!);
};
`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'routes/aaa.ts': early('number') });
  await assertSameAsFresh();
});

test("a union of two enums' members is in the same order whichever enum another route file met first", async () => {
  // Members of one enum have ids in declared order; those of two follow which enum the
  // checker met first: E2 through aaa.ts, analysed before api.ts, whose analysis is kept
  // when only aaa.ts changes.
  const early = (returns: string) => `import type { Router } from 'svc';
import { E2 } from '../weave/enums.ts';
export default (router: Router) => {
  router.get('/early', (): ${returns} => null!);
};
`;
  await writeFiles(root, {
    'weave/enums.ts': "export enum E1 { Y = 'y', Q = 'q' }\nexport enum E2 { X = 'x', P = 'p' }\n",
    'routes/aaa.ts': early('{ e: E2 }'),
    'routes/api.ts': `import type { Router } from 'svc';
import { E1, E2 } from '../weave/enums.ts';
export default (router: Router) => {
  router.get('/letters/{letter}', (letter: E1.Y | E2.X): { letter: typeof letter; other: E1.Q | E2.P } => null!);
};
`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'routes/aaa.ts': early('number') });
  await assertSameAsFresh();
});

test("a mapped type's required keys are in the same order whichever of its keys another route file met first", async () => {
  // `Record<'alpha' | 'zeta', T>` has its properties in the order of its key union: 'zeta'
  // first when aaa.ts, analysed before api.ts, met it first.
  const early = (returns: string) => `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/early', (): ${returns} => null!);
};
`;
  await writeFiles(root, {
    'routes/aaa.ts': early("{ k: 'zeta' }"),
    'routes/api.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/counts', (): { counts: Record<'alpha' | 'zeta', number>; picked: Pick<{ alpha: 1; zeta: 2; beta: 3 }, 'zeta' | 'alpha'> } => null!);
};
`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'routes/aaa.ts': early('number') });
  await assertSameAsFresh();
});

// A file a route file imports, missing and then written: in a routes/ subfolder (the listing
// of routes/** shows it come), and outside routes/ and weave/ (only the failed import tells).
for (const [where, from, folder, name] of [
  ['in a routes/ subfolder', './shared', 'routes/shared', 'Sub'],
  ['outside routes/ and weave/', '../lib', 'lib', 'Lib'],
] as const) {
  test(`a file ${where} that a route file imports, missing and then written`, async () => {
    await writeFiles(root, {
      'routes/sub.ts': `import type { Router } from 'svc';
import { ${name}Controller } from '${from}/${name}Controller.ts';
export default (router: Router) => {
  router.get('/${name.toLowerCase()}/{id}', [${name}Controller, 'show']);
};
`,
    });
    assert.equal((await assertSameAsFresh()).ok, false);
    await writeFiles(root, { [`${folder}/${name}Controller.ts`]: `export class ${name}Controller {\n  show(id: string): { id: string } { return { id }; }\n}\n` });
    const { ok, diagnostics } = await assertSameAsFresh();
    assert.equal(ok, true, JSON.stringify(diagnostics));
  });
}

// An edit re-analyses only the route files that can reach the edited file; these are the
// ways a route file reaches one other than an import declaration.

test('a model reached only through an import type: an edit reaches the route', async () => {
  const typed = (fields: string) => `export interface Typed { ${fields} }\n`;
  await writeFiles(root, {
    'weave/Typed.ts': typed('a: string'),
    'routes/typed.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/typed', (): import('../weave/Typed.ts').Typed => null!);
};
`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'weave/Typed.ts': typed('a: string; b: number') });
  const { table } = await assertSameAsFresh();
  assert.ok('b' in (table.schemas.Typed!.properties as object));
});

test('a controller named by string: an edit to it reaches its routes', async () => {
  const tags = (returns: string) => `import { Controller } from 'svc';\nexport class TagController extends Controller {\n  index(): ${returns} { return []; }\n}\n`;
  await writeFiles(root, {
    'weave/Controllers/TagController.ts': tags('string[]'),
    'routes/tags.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/tags', ['TagController', 'index']);\n};\n`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'weave/Controllers/TagController.ts': tags('number[]') });
  const { table } = await assertSameAsFresh();
  const route = table.routes.find((r) => r.pattern === '/tags')!;
  assert.deepEqual(route.handler.kind !== 'builtin' && route.handler.returns, { json: { type: 'array', items: { type: 'number' } } });
});

test('a middleware edit reaches the error statuses its routes document, imported or named by string', async () => {
  const guard = (name: string, status: number) =>
    `import { abort, type Context, type Next, type Outgoing } from 'svc';\nexport class ${name} {\n  handle(ctx: Context, next: Next): Promise<Outgoing> {\n    if (!ctx.headers['x-key']) abort(${status});\n    return next();\n  }\n}\n`;
  await writeFiles(root, {
    'weave/Middleware/Guard.ts': guard('Guard', 401),
    'weave/Middleware/Named.ts': guard('Named', 402),
    'routes/guarded.ts': `import type { Router } from 'svc';\nimport { Guard } from '../weave/Middleware/Guard.ts';\nexport default (router: Router) => {\n  router.group({ middleware: [Guard, 'Named'] }, (r) => { r.get('/guarded', () => 'in'); });\n};\n`,
  });
  const errors = ({ table }: { table: RouteTable }) => table.routes.find((r) => r.pattern === '/guarded')!.middleware.map((m) => m.errors);
  assert.deepEqual(errors(await assertSameAsFresh()), [[401], [402]]);
  await writeFiles(root, { 'weave/Middleware/Guard.ts': guard('Guard', 403) });
  assert.deepEqual(errors(await assertSameAsFresh()), [[403], [402]]);
  await writeFiles(root, { 'weave/Middleware/Named.ts': guard('Named', 404) });
  assert.deepEqual(errors(await assertSameAsFresh()), [[403], [404]]);
});

test("a helper the controller calls: an edit reaches the statuses its route documents", async () => {
  const lookup = (status: number) => `import { abort } from 'svc';\nexport function findOrFail(id: number): number {\n  if (id < 0) abort(${status});\n  return id;\n}\n`;
  await writeFiles(root, {
    'weave/Lookup.ts': lookup(404),
    'weave/Controllers/LookupController.ts': `import { Controller } from 'svc';\nimport { findOrFail } from '../Lookup.ts';\nexport class LookupController extends Controller {\n  show(id: number): number { return findOrFail(id); }\n}\n`,
    'routes/lookup.ts': `import type { Router } from 'svc';\nimport { LookupController } from '../weave/Controllers/LookupController.ts';\nexport default (router: Router) => {\n  router.get('/lookup/{id}', [LookupController, 'show']);\n};\n`,
  });
  const errors = ({ table }: { table: RouteTable }) => {
    const route = table.routes.find((r) => r.pattern === '/lookup/{id}')!;
    return route.handler.kind === 'controller' && route.handler.calls.errors;
  };
  assert.deepEqual(errors(await assertSameAsFresh()), [404]);
  await writeFiles(root, { 'weave/Lookup.ts': lookup(410) });
  assert.deepEqual(errors(await assertSameAsFresh()), [410]);
});

test('a global declaration: an edit reaches route files that do not import its file', async () => {
  const globals = (fields: string) => `declare global {\n  interface Extra { ${fields} }\n}\nexport const GLOBALS = true;\n`;
  await writeFiles(root, {
    'weave/Globals.ts': globals('size: number'),
    'routes/declares.ts': `import type { Router } from 'svc';\nimport '../weave/Globals.ts';\nexport default (router: Router) => {};\n`,
    'routes/extra.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/extra', (): Extra => null!);\n};\n`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'weave/Globals.ts': globals('size: number; label: string') });
  const { table } = await assertSameAsFresh();
  assert.ok('label' in (table.schemas.Extra!.properties as object));
});

test("a model imported through package.json's imports (#alias): an edit reaches the route", async () => {
  await writeFiles(root, {
    'package.json': JSON.stringify({ type: 'module', imports: { '#typed': './weave/Typed.ts' } }),
    'routes/aliased.ts': `import type { Router } from 'svc';
import type { Typed } from '#typed';
export default (router: Router) => {
  router.get('/aliased', (): Typed => null!);
};
`,
  });
  await assertSameAsFresh();
  await writeFiles(root, { 'weave/Typed.ts': 'export interface Typed { a: string; c: boolean }\n' });
  const { table } = await assertSameAsFresh();
  assert.ok('c' in (table.schemas.Typed!.properties as object));
});

test('a file with no import or export, whose declarations are global in a CommonJS package: an edit reaches every route', async () => {
  // Its own project: without `"type": "module"`, such a file is a script, not a module.
  const script = (fields: string) => `interface Scripted { ${fields} }\n`;
  const cjs = await makeProject({
    'package.json': JSON.stringify({ name: 'scripts', private: true }),
    'weave/Script.ts': script('n: number'),
    'routes/a.ts': `import type { Router } from 'svc';\nimport '../weave/Script.ts';\nexport default (router: Router) => {};\n`,
    'routes/b.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.get('/scripted', (): Scripted => null!);\n};\n`,
  });
  try {
    await assertSameAsFresh(cjs);
    await writeFiles(cjs, { 'weave/Script.ts': script('n: number; m: string') });
    const { table } = await assertSameAsFresh(cjs);
    assert.ok('m' in (table.schemas.Scripted!.properties as object));
  } finally {
    await removeProject(cjs);
    await removeProject(`${cjs}-fresh`);
  }
});

test("a model imported through tsconfig.json's paths: an edit reaches the route, and a change of the paths resolves anew", async () => {
  // Its own project: the aliases are the project's, and a change of them starts the analysis afresh.
  const tsconfig = (target: string) => JSON.stringify({ compilerOptions: { paths: { '@models/*': [target] } } });
  const typed = (fields: string) => `export interface Typed { ${fields} }\n`;
  const aliased = await makeProject({
    'tsconfig.json': tsconfig('./weave/Models/*'),
    'weave/Models/Typed.ts': typed('a: string'),
    'weave/Other/Typed.ts': typed('other: string'),
    'routes/aliased.ts': `import type { Router } from 'svc';
import type { Typed } from '@models/Typed.ts';
export default (router: Router) => {
  router.get('/aliased', (): Typed => null!);
};
`,
  });
  const fields = async (): Promise<string[]> => Object.keys((await assertSameAsFresh(aliased)).table.schemas.Typed!.properties as object);
  try {
    assert.deepEqual(await fields(), ['a']);
    await writeFiles(aliased, { 'weave/Models/Typed.ts': typed('a: string; c: boolean') });
    assert.deepEqual(await fields(), ['a', 'c']);
    await writeFiles(aliased, { 'tsconfig.json': tsconfig('./weave/Other/*') });
    assert.deepEqual(await fields(), ['other']);
  } finally {
    await removeProject(aliased);
    await removeProject(`${aliased}-fresh`);
  }
});

// A route file analysed again takes the handlers of controllers that did not change from
// earlier builds (compiler/analyse/handler-cache.ts) rather than describing them afresh.
test('a route file analysed again reuses the descriptions of handlers whose controller did not change', async () => {
  const controllerOf = (name: string, returns: string) =>
    `import { Controller } from 'svc';\nimport type { Item } from '../Models.ts';\nexport class ${name} extends Controller {\n  list(): ${returns} { return null!; }\n}\n`;
  const routes = (path: string, extra = '') =>
    `import type { Router } from 'svc';\nimport { Tags } from '../weave/Controllers/Tags.ts';\nimport { Items } from '../weave/Controllers/Items.ts';\nexport default (router: Router) => {\n  router.get('${path}', [Tags, 'list']);\n  router.get('/items', [Items, 'list']);\n${extra}};\n`;
  const at = await makeProject({
    'routes/api.ts': routes('/tags'),
    'weave/Models.ts': model(),
    'weave/Controllers/Tags.ts': controllerOf('Tags', 'string[]'),
    'weave/Controllers/Items.ts': controllerOf('Items', 'Item[]'),
  });
  try {
    const returnsOf = ({ table }: { table: RouteTable }, pattern: string) => {
      const handler = table.routes.find((r) => r.pattern === pattern)!.handler;
      return handler.kind === 'controller' ? handler.returns : null;
    };
    const first = await assertSameAsFresh(at);
    // Items changed: the route file is analysed again, Tags' handler is taken as it was.
    await writeFiles(at, { 'weave/Controllers/Items.ts': controllerOf('Items', 'Item') });
    const itemsEdited = await assertSameAsFresh(at);
    assert.equal(returnsOf(itemsEdited, '/tags'), returnsOf(first, '/tags'));
    assert.notEqual(returnsOf(itemsEdited, '/items'), returnsOf(first, '/items'));
    // The route file itself changed: both handlers are taken as they were, Items' with the
    // component its schema reaches (its `$ref` is renamed in a copy, so only Tags' is the same object).
    await writeFiles(at, { 'routes/api.ts': routes('/labels') });
    const routeEdited = await assertSameAsFresh(at);
    assert.equal(returnsOf(routeEdited, '/labels'), returnsOf(first, '/tags'));
    assert.deepEqual(returnsOf(routeEdited, '/items'), { json: { $ref: '#/components/schemas/Item' } });
    assert.ok(routeEdited.table.schemas.Item);
  } finally {
    await removeProject(at);
    await removeProject(`${at}-fresh`);
  }
});

test('a route file with a warning: it is said again after every edit, and gone once its cause is', async () => {
  const routes = (path: string, mapped: boolean) =>
    `import type { Router } from 'svc';\nimport { Tags } from '../weave/Controllers/Tags.ts';\nexport default (router: Router) => {\n  router.get('${path}', [Tags, 'list']);\n${mapped ? "  router.get('/counts', [Tags, 'counts']);\n" : ''}};\n`;
  const at = await makeProject({
    'routes/api.ts': routes('/tags', false),
    'weave/Controllers/Tags.ts': `import { Controller } from 'svc';\nexport class Tags extends Controller {\n  list(): string[] { return []; }\n  counts(): Map<string, number> { return new Map(); }\n}\n`,
  });
  try {
    const warnings = ({ diagnostics }: { diagnostics: unknown[] }) => diagnostics.filter((d) => (d as { code: string }).code === 'SVC009').length;
    assert.equal(warnings(await assertSameAsFresh(at)), 0);
    await writeFiles(at, { 'routes/api.ts': routes('/tags', true) });
    assert.equal(warnings(await assertSameAsFresh(at)), 1);
    await writeFiles(at, { 'routes/api.ts': routes('/labels', true) });
    assert.equal(warnings(await assertSameAsFresh(at)), 1);
    await writeFiles(at, { 'routes/api.ts': routes('/labels', false) });
    assert.equal(warnings(await assertSameAsFresh(at)), 0);
  } finally {
    await removeProject(at);
    await removeProject(`${at}-fresh`);
  }
});
