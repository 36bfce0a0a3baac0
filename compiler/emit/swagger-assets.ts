// Swagger UI for the docs endpoint, copied from swagger-ui-dist into
// shoebox/outsole/docs/ by `svc build` and `svc route docs`, so that the docs page
// loads nothing from a CDN. Only the files the page uses are copied (no source maps, no
// unused bundles), with the licence and notice that must travel with them.
import { copyFile, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { docsAssetFolder } from '../../runtime/shoebox/assets.ts';
import { ensureFolder } from '../../runtime/shoebox/paths.ts';
import { frameworkRoot } from '../framework.ts';

export const SWAGGER_UI_FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'favicon-16x16.png',
  'favicon-32x32.png',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
  'LICENSE',
  'NOTICE',
] as const;

/** Copies the files that are missing or differ; unchanged copies keep their mtime (and clients their cache). */
export async function copySwaggerAssets(root: string): Promise<void> {
  const from = dirname(createRequire(join(frameworkRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
  const to = await ensureFolder(docsAssetFolder(root));
  await Promise.all(
    SWAGGER_UI_FILES.map(async (name) => {
      const [source, copy] = await Promise.all([readFile(join(from, name)), readFile(join(to, name)).catch(() => null)]);
      if (copy === null || !source.equals(copy)) await copyFile(join(from, name), join(to, name));
    }),
  );
}
