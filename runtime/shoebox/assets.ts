// Files under shoebox/outsole/ and their URLs. Every file there is served under
// `/shoebox/outsole/` (runtime/endpoints/outsole.ts). The docs endpoint has URLs of its
// own for what it serves: a file directly in shoebox/outsole/docs/ at
// `/<endpoints.docs>/<file>`, and `openapi.json` at `/<endpoints.docs>/openapi.json`, from
// the build the server runs (the copy in shoebox/outsole/ exists only once `svc route
// docs` has written it).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DEFAULT_CONFIG } from '../config.ts';
import { shoeboxPath } from './paths.ts';

/** Where the files of shoebox/outsole/ are served. */
export const OUTSOLE_MOUNT = '/shoebox/outsole';

/** The OpenAPI document's file name, under the docs mount and in shoebox/outsole/. */
export const OPENAPI_FILE = 'openapi.json';

/** A plain file name: no separators, no escapes, no leading dot (so no `..` and no hidden files). */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export const isAssetName = (name: string): boolean => ASSET_NAME.test(name);

export const docsAssetFolder = (root: string): string => shoeboxPath(root, 'outsole', 'docs');

/** What `svc build` copies from swagger-ui-dist into the docs folder: the files the page uses, with the licence and notice that travel with them. */
export const SWAGGER_UI_FILES: readonly string[] = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'favicon-16x16.png',
  'favicon-32x32.png',
  'oauth2-redirect.html',
  'oauth2-redirect.js',
  'LICENSE',
  'NOTICE',
];

/** swagger-ui-dist's folder, as the svc package at `svcRoot` resolves it; null when it is not installed. */
export function swaggerUiDist(svcRoot: string): string | null {
  try {
    return dirname(createRequire(join(svcRoot, 'package.json')).resolve('swagger-ui-dist/package.json'));
  } catch {
    return null;
  }
}

let docsMount = `/${DEFAULT_CONFIG.endpoints.docs}`;

/** Called by the docs endpoint at start-up with its route's path, e.g. `/svc/docs`. */
export function useDocsMount(path: string): void {
  docsMount = path;
}

/**
 * The URL of a file under shoebox/outsole/: `shoeAsset('img/logo.png')` →
 * `/shoebox/outsole/img/logo.png`; what the docs endpoint serves gets its URL,
 * `shoeAsset('docs/swagger-ui.css')` → `/svc/docs/swagger-ui.css` and
 * `shoeAsset('openapi.json')` → `/svc/docs/openapi.json` (with svc.json `endpoints.docs`
 * of the application being served). A path that climbs out of the folder or names a
 * hidden file has no URL and throws, so a broken link shows up where it is written.
 */
export function shoeAsset(relativePath: string): string {
  const parts = relativePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || !parts.every(isAssetName)) {
    throw new Error(`shoeAsset('${relativePath}'): give a file under shoebox/outsole/ by plain names (letters, digits, "_", "-", "."; none starting with "."), e.g. "img/logo.png".`);
  }
  if (parts.length === 1 && parts[0] === OPENAPI_FILE) return `${docsMount}/${OPENAPI_FILE}`;
  if (parts.length === 2 && parts[0] === 'docs' && parts[1] !== OPENAPI_FILE) return `${docsMount}/${parts[1]}`;
  return `${OUTSOLE_MOUNT}/${parts.join('/')}`;
}
