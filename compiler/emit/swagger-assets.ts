// Swagger UI for the docs endpoint, copied from swagger-ui-dist into
// shoebox/outsole/docs/ by `svc build` and `svc route docs`, so that the docs page
// loads nothing from a CDN. Only the files the page uses are copied (no source maps, no
// unused bundles), with the licence and notice that must travel with them.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docsAssetFolder, SWAGGER_UI_FILES, swaggerUiDist } from '../../runtime/shoebox/assets.ts';
import { ensureFolder } from '../../runtime/shoebox/paths.ts';
import { frameworkRoot } from '../framework.ts';

/** Copies the files that are missing or differ; unchanged copies keep their mtime (and clients their cache). */
export async function copySwaggerAssets(root: string): Promise<void> {
  const from = swaggerUiDist(frameworkRoot);
  if (from === null) throw new Error(`swagger-ui-dist is not installed beside svc (${frameworkRoot}): run npm install there.`);
  const to = await ensureFolder(docsAssetFolder(root));
  await Promise.all(
    SWAGGER_UI_FILES.map(async (name) => {
      const [source, copy] = await Promise.all([readFile(join(from, name)), readFile(join(to, name)).catch(() => null)]);
      if (copy === null || !source.equals(copy)) await copyFile(join(from, name), join(to, name));
    }),
  );
}
