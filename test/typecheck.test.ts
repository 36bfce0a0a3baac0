// The framework, the demo application, the tests and the benches type-check under strict
// TypeScript: the `'svc'` API the demo imports is exactly the one the runtime exports.
// An application's own `tsc` reads svc's sources as well (svc ships TypeScript): they
// must pass the guide's tsconfig with every stricter flag a project may add.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeProject, removeProject, repoRoot } from './support/project.ts';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typecheck = (project: string) => spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { encoding: 'utf8' });

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

test('tsc --noEmit reports nothing', () => {
  const result = typecheck(repoRoot);
  assert.equal(result.stdout + result.stderr, '');
  assert.equal(result.status, 0);
});

const STRICTER = {
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
};

/** The tsconfig the guide gives applications (the JSON block after its marker comment). */
async function guideTsconfig(): Promise<{ compilerOptions: Record<string, unknown> }> {
  const guide = await readFile(join(repoRoot, 'docs', 'guide.md'), 'utf8');
  const block = /<!-- app tsconfig[^>]*-->\n```json\n([\s\S]*?)```/.exec(guide);
  assert.ok(block, 'docs/guide.md has lost its application tsconfig');
  return JSON.parse(block[1]!);
}

test("an application's tsc, with the guide's tsconfig and the stricter flags, passes through svc's sources", async () => {
  const tsconfig = await guideTsconfig();
  tsconfig.compilerOptions = { ...tsconfig.compilerOptions, ...STRICTER };
  const root = await makeProject({
    'tsconfig.json': JSON.stringify(tsconfig),
    'routes/api.ts': `import { type Router, RateLimitKnots, ShoeCacheKnots, logError, shoeAsset, db } from 'svc';
import { ItemController } from '../weave/Controllers/ItemController.ts';
import { Stamp } from '../weave/Middleware/Stamp.ts';
export default (router: Router) => {
  router.sewGet('/items/{id}', [ItemController, 'show']);
  router.group({ prefix: '/x', middleware: [Stamp, [RateLimitKnots, [10, 60]], [ShoeCacheKnots, [5]]] }, (r) => {
    r.get('/docs', () => shoeAsset('openapi.json'));
    r.post('/log', () => logError('audit', 'posted', { at: Date.now() }));
    r.get('/tables', async () => (await db().introspection.getTables()).map((table) => table.name));
  });
};
`,
    'weave/Controllers/ItemController.ts': `import { Controller } from 'svc';
export class ItemController extends Controller {
  show(id: number) { return { id, path: this.ctx.path, accept: this.ctx.headers.accept ?? null }; }
}
`,
    'weave/Middleware/Stamp.ts': `import type { Context, Middleware, Next } from 'svc';
export class Stamp implements Middleware {
  async handle(_ctx: Context, next: Next) { const out = await next(); out.headers['x-stamp'] = '1'; return out; }
}
`,
  });
  roots.push(root);
  const result = typecheck(root);
  assert.equal(result.stdout + result.stderr, '');
  assert.equal(result.status, 0);
});
