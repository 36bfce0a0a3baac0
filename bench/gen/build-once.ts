// `node --import tsx bench/gen/build-once.ts <root> [--no-openapi]`: one build, for the
// build bench's with/without-OpenAPI comparison. With: exactly `svc build`. Without:
// the same analysis and check (its schema walk also yields the placeholder conversions
// the dispatcher needs), every .svc/ file but openapi.json, the bundle, no Swagger assets.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '../../compiler/build.ts';
import { bundle } from '../../compiler/bundle/index.ts';
import { emitFiles, OUT_DIR } from '../../compiler/emit/index.ts';
import { readApiInfo } from '../../compiler/emit/openapi/index.ts';

const [root, flag] = process.argv.slice(2);
if (!root) throw new Error('usage: build-once.ts <project root> [--no-openapi]');

if (flag !== '--no-openapi') {
  if (!(await build(root)).ok) process.exit(1);
} else {
  const { ok, table } = await build(root, { write: false });
  if (!ok || !table) process.exit(1);
  const { 'openapi.json': _skipped, ...files } = emitFiles(table, await readApiInfo(root));
  await mkdir(join(root, OUT_DIR), { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(root, OUT_DIR, name), content);
  await bundle(root);
}
