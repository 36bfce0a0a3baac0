// GET /<endpoints.docs>: Swagger UI for the build's OpenAPI document, and
// GET /<endpoints.docs>/{asset}: its files. Everything is served by this server (no
// CDN): Swagger UI from shoebox/outsole/docs/ (copied there from swagger-ui-dist by
// `svc build` and `svc route docs`; from swagger-ui-dist itself when that copy is
// missing), the document from `.svc/openapi.json` as the served build wrote it.
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../config.ts';
import { HttpError } from '../errors/http-error.ts';
import type { BuiltinFactory, BuiltinSetup } from '../server/builtins.ts';
import { docsAssetFolder, isAssetName, OPENAPI_FILE, SWAGGER_UI_FILES, swaggerUiDist, useDocsMount } from '../shoebox/assets.ts';
import { frameworkRoot } from '../shoebox/paths.ts';
import { buildFile, builtinPath, loadPage } from './pages.ts';
import { contentType, sendFile, StaticFiles } from './static-file.ts';

/** Swagger UI's files are not fingerprinted: clients revalidate (ETag) after an hour. */
const ASSET_MAX_AGE = 3600;

const docsMount = ({ app }: BuiltinSetup): string => builtinPath(app.manifest, 'docs', DEFAULT_CONFIG.endpoints.docs);

export const docs: BuiltinFactory = async (setup) => {
  const mount = docsMount(setup);
  // A build's .svc/asset-urls.ts set it before the application loaded; this covers an app
  // handed to createHandler without that entry (tests), and is the same path.
  useDocsMount(mount);
  // The script's settings as JSON that cannot close the <script> element early.
  const script = JSON.stringify({ specUrl: `${mount}/${OPENAPI_FILE}`, oauth2Redirect: `${mount}/oauth2-redirect.html` }).replace(/</g, '\\u003c');
  const html = (await loadPage(setup.root, 'docs'))({ mount, script });
  return (ctx) => {
    ctx.header('cache-control', 'no-cache');
    return html;
  };
};

export const docsAsset: BuiltinFactory = async (setup) => {
  const build = new StaticFiles(buildFile(setup.root, ''));
  const documentFile = buildFile(setup.root, OPENAPI_FILE);
  // The document of the build being served, read now: a later `svc build` writes the next
  // build's, which this server does not run. `svc tread` writes each build's document
  // after it serves that build (compiler/cli/tread.ts), so there it is read as it changes.
  const served = setup.dev ? null : await build.load(documentFile, true);
  const copied = new StaticFiles(docsAssetFolder(setup.root));
  const dist = installedSwaggerUi(setup.root);
  const scope = setup.config.endpoints.guarded ? 'private' : 'public';
  return async (ctx) => {
    const name = String(ctx.params['asset']);
    // Only plain file names reach the disk: `..`, `%2F`, `\` or a hidden file is a 404.
    if (!isAssetName(name)) throw new HttpError(404, `No file ${name} in the API docs.`);
    if (name === OPENAPI_FILE) {
      const document = setup.dev ? await build.load(documentFile) : served;
      if (document === null) throw new HttpError(404, 'The build has no openapi.json: run `svc build`, then start the server again.');
      return sendFile(ctx, document, contentType(OPENAPI_FILE), `${scope}, no-cache`);
    }
    const file = (await copied.load(join(copied.folder, name))) ?? (dist && SWAGGER_UI_FILES.includes(name) ? await dist.load(join(dist.folder, name)) : null);
    if (file === null) throw new HttpError(404, `No file ${name} in shoebox/outsole/docs/ (\`svc route docs\` puts Swagger UI there).`);
    return sendFile(ctx, file, contentType(name), `${scope}, max-age=${ASSET_MAX_AGE}`);
  };
};

/**
 * Swagger UI as installed with svc, for a shoebox without its copy (shoebox/outsole/docs/
 * is git-ignored: a deploy that ships `.svc/` alone has none), so the page still works.
 */
function installedSwaggerUi(root: string): StaticFiles | null {
  const svcRoot = frameworkRoot(root);
  const folder = svcRoot === null ? null : swaggerUiDist(svcRoot);
  return folder === null ? null : new StaticFiles(folder);
}
