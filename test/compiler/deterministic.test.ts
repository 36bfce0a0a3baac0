import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';
import { svc } from '../support/cli.ts';

const tree = {
  'routes/api.ts': `import type { Router } from 'svc';
import { ItemController } from '../weave/Controllers/ItemController.js';
export default (router: Router) => {
  router.get('/', () => 'home');
  router.group({ prefix: '/items', middleware: ['Stamp'] }, (r) => {
    r.sewGet('/{id}', [ItemController, 'show']);
    r.sewPost('/', ['ItemController', 'store']);
  });
};
`,
  'weave/Controllers/ItemController.ts': `export interface Item { id: number; name: string }
export class ItemController {
  show(id: number): Item { return { id, name: 'x' }; }
  store(): Item { return { id: 1, name: 'new' }; }
}
`,
  'weave/Middleware/Stamp.ts': `import type { Context, Middleware, Next } from 'svc';
export class Stamp implements Middleware {
  async handle(_ctx: Context, next: Next) { const out = await next(); out.headers['x-stamp'] = '1'; return out; }
}
`,
  'svc.json': '{ "ip": { "routes": { "/items": { "blacklist": ["10.0.0.0/8"] } } } }\n',
};

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

async function buildOutput(root: string): Promise<Map<string, Buffer>> {
  const result = svc(root, ['build']);
  assert.equal(result.status, 0, result.stderr);
  const dir = join(root, '.svc');
  const files = new Map<string, Buffer>();
  for (const name of (await readdir(dir)).sort()) files.set(name, await readFile(join(dir, name)));
  return files;
}

test('the same input tree always yields byte-identical .svc/ output', async () => {
  const first = await makeProject(tree);
  const second = await makeProject(tree);
  roots.push(first, second);
  const once = await buildOutput(first);
  const again = await buildOutput(first);
  const elsewhere = await buildOutput(second);
  assert.deepEqual([...once.keys()], ['app.mjs', 'app.mjs.map', 'asset-urls.ts', 'canonical-path.ts', 'dispatcher.ts', 'entry.ts', 'ip-tables.json', 'manifest.json', 'openapi.json', 'package.json']);
  for (const [name, bytes] of once) {
    assert.ok(bytes.equals(again.get(name)!), `${name} differs between two builds of one tree`);
    assert.ok(bytes.equals(elsewhere.get(name)!), `${name} differs between two copies of the tree`);
  }
});

test('the build names no folder of the machine it ran on, so a built tree can be moved', async () => {
  const root = await makeProject(tree);
  roots.push(root);
  for (const [name, bytes] of await buildOutput(root)) {
    const text = bytes.toString('utf8');
    assert.ok(!text.includes(repoRoot) && !text.includes(root), `${name} holds an absolute path`);
  }
});
