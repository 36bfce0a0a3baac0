// tsconfig.json `paths` (compiler/analyse/path-aliases.ts): what tsc, esbuild and tsx
// resolve, the analysis resolves too, and a broken alias is reported where it is used.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readPathAliases } from '../../compiler/analyse/path-aliases.ts';
import { Reporter } from '../../compiler/analyse/reporter.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { startProject } from '../support/server.ts';
import { lines, runSvc } from './fixture.ts';

const tsconfig = (paths: Record<string, string[]>, extra = '') =>
  `{\n  // tsconfig.json takes comments and trailing commas\n  "compilerOptions": {\n    "strict": true,${extra}\n    "paths": ${JSON.stringify(paths)},\n  },\n}\n`;

const api = `import type { Router } from 'svc';
import { UserController } from '@/Controllers/UserController.ts';
export default (router: Router) => {
  router.get('/users/{id}', [UserController, 'show']);
};
`;

const controller = (model = '@/Models/User.ts') => `import { type User, makeUser } from '${model}';
export class UserController {
  show(id: number): User {
    return makeUser(id);
  }
}
`;

const user = "export interface User { id: number; name: string }\nexport const makeUser = (id: number): User => ({ id, name: `user ${id}` });\n";

const files = { 'tsconfig.json': tsconfig({ '@/*': ['./weave/*'] }), 'routes/api.ts': api, 'weave/Controllers/UserController.ts': controller(), 'weave/Models/User.ts': user };

const app = await startProject(files);
after(() => app.close());

test('a controller and a model imported through aliases: the placeholder is converted by the aliased type, and served', async () => {
  assert.deepEqual(await (await fetch(`${app.url}/users/7`)).json(), { id: 7, name: 'user 7' });
  assert.equal((await fetch(`${app.url}/users/x`)).status, 400);
});

test("the aliased model's type is documented", async () => {
  const document = (await (await fetch(`${app.url}/svc/docs/openapi.json`)).json()) as { components: { schemas: Record<string, unknown> } };
  assert.deepEqual(document.components.schemas.User, {
    type: 'object',
    properties: { id: { type: 'number' }, name: { type: 'string' } },
    required: ['id', 'name'],
  });
});

/** Builds `tree` with the real CLI and returns its exit code and stderr lines. */
async function buildOf(tree: Record<string, string>): Promise<{ code: number | null; errors: string[] }> {
  const root = await makeProject(tree);
  try {
    const run = await runSvc(root, ['build']);
    return { code: run.code, errors: lines(run.stderr) };
  } finally {
    await removeProject(root);
  }
}

test('an alias whose target has no file is SVC011 at the import, naming the path it tried', async () => {
  const run = await buildOf({ ...files, 'weave/Controllers/UserController.ts': controller('@/Models/Usr.ts') });
  assert.equal(run.code, 1);
  assert.deepEqual(run.errors, [
    `weave/Controllers/UserController.ts:1:37 - error SVC011: Could not resolve "@/Models/Usr.ts": tsconfig.json's paths entry "@/*" maps it to weave/Models/Usr.ts, where no file is. Correct the import, or create what it names.`,
  ]);
});

test('a name the aliased file does not export is SVC011, as for a relative import', async () => {
  const run = await buildOf({ ...files, 'weave/Controllers/UserController.ts': controller().replace('makeUser }', 'makeUser, nope }') });
  assert.deepEqual(run.errors, ['weave/Controllers/UserController.ts:1:31 - error SVC011: No matching export in "weave/Models/User.ts" for import "nope". Correct the import, or create what it names.']);
});

test('a tsconfig.json that does not parse is SVC010 where the parser stopped', async () => {
  const run = await buildOf({ ...files, 'tsconfig.json': '{ "compilerOptions": { "paths": { "@/*": ["./weave/*"] }\n' });
  assert.equal(run.code, 1);
  // Without the aliases, what they named is not found either.
  assert.deepEqual(run.errors, [
    "routes/api.ts:2:32 - error SVC011: cannot find package '@/Controllers': install it (npm install @/Controllers) or correct the import.",
    "routes/api.ts:4:30 - error SVC004: unknown controller class 'UserController': not a class",
    "tsconfig.json:2:1 - error SVC010: syntax error: '}' expected. svc reads the file's compilerOptions.paths; it must parse, as it must for tsc.",
  ]);
});

test('a paths entry that is not a list of paths is SVC010 at the entry, or at the extends that brought it in, not a crash', async () => {
  const run = await buildOf({
    ...files,
    'tsconfig.json': '{\n  "compilerOptions": {\n    "paths": { "@/*": ["./weave/*"], "a": 5, "b": [null], "c": [] }\n  }\n}\n',
  });
  assert.equal(run.code, 1);
  const fix = 'it must list the paths it maps to, as in "@/*": ["./weave/*"], as tsc requires.';
  assert.deepEqual(run.errors, [
    `tsconfig.json:3:43 - error SVC010: compilerOptions.paths entry "a" is 5; ${fix}`,
    `tsconfig.json:3:51 - error SVC010: compilerOptions.paths entry "b" is [null]; ${fix}`,
    `tsconfig.json:3:64 - error SVC010: compilerOptions.paths entry "c" is an empty list; ${fix}`,
  ]);
  const extended = await buildOf({ ...files, 'tsconfig.json': '{ "extends": "./base.json" }', 'base.json': '{ "compilerOptions": { "paths": { "@/*": ["./weave/*"], "a": "./weave" } } }' });
  assert.deepEqual(extended, { code: 1, errors: [`tsconfig.json:1:14 - error SVC010: compilerOptions.paths entry "a" is "./weave"; ${fix}`] });
});

test('paths from an extended file resolve from the folder of that file; baseUrl, when set, is their base', async () => {
  const extended = await buildOf({
    ...files,
    'tsconfig.json': '{ "extends": "./config/tsconfig.base.json" }',
    'config/tsconfig.base.json': tsconfig({ '@/*': ['../weave/*'] }),
  });
  assert.deepEqual(extended, { code: 0, errors: [] });
  const based = await buildOf({ ...files, 'tsconfig.json': tsconfig({ '@/*': ['./*'] }, '\n    "baseUrl": "./weave",\n    "ignoreDeprecations": "6.0",') });
  assert.deepEqual(based, { code: 0, errors: [] });
});

test('a catch-all pattern leaves packages to the packages it does not map', async () => {
  const run = await buildOf({
    ...files,
    'tsconfig.json': tsconfig({ '*': ['./types/*'], '@/*': ['./weave/*'] }),
    'routes/web.ts': "import type { Router } from 'svc';\nimport { sql } from 'kysely';\nexport default (router: Router) => {\n  router.get('/', () => String(sql));\n};\n",
  });
  assert.deepEqual(run, { code: 0, errors: [] });
});

test('as TypeScript picks: a pattern without a star that equals the specifier, else the longest matching prefix', async () => {
  const root = await makeProject({
    'tsconfig.json': tsconfig({ '@/*': ['./a/*'], '@/models/*': ['./b/*', './a/*'], '@/models/User': ['./c/User.ts'] }),
    'a/x.ts': '',
    'a/models/y.ts': '',
    'b/y.ts': '',
    'c/User.ts': '',
  });
  try {
    const aliases = readPathAliases(root, new Reporter(root));
    assert.equal(aliases.resolve('@/x.ts'), join(root, 'a/x.ts'));
    assert.equal(aliases.resolve('@/models/y.ts'), join(root, 'b/y.ts'));
    assert.equal(aliases.resolve('@/models/User'), join(root, 'c/User.ts'));
    assert.equal(aliases.patternOf('@/models/z'), '@/models/*');
    assert.deepEqual(aliases.tried('@/models/z'), [join(root, 'b/z'), join(root, 'a/z')]);
    assert.equal(aliases.resolve('kysely'), null);
  } finally {
    await removeProject(root);
  }
});
