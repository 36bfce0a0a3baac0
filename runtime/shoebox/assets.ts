// Files under shoebox/outsole/ and their URLs. The docs endpoint is their public mount:
// a file directly in shoebox/outsole/docs/ is served at `/<endpoints.docs>/<file>`, and
// `openapi.json` (written to shoebox/outsole/ by `svc route docs`) at
// `/<endpoints.docs>/openapi.json`, from the build the server runs. Nothing deeper is
// served, so a URL can never climb out of the folder.
import { DEFAULT_CONFIG } from '../config.ts';
import { shoeboxPath } from './paths.ts';

/** The OpenAPI document's file name, under the docs mount and in shoebox/outsole/. */
export const OPENAPI_FILE = 'openapi.json';

/** A plain file name: no separators, no escapes, no leading dot (so no `..` and no hidden files). */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export const isAssetName = (name: string): boolean => ASSET_NAME.test(name);

export const docsAssetFolder = (root: string): string => shoeboxPath(root, 'outsole', 'docs');

let docsMount = `/${DEFAULT_CONFIG.endpoints.docs}`;

/** Called by the docs endpoint at start-up with its route's path, e.g. `/svc/docs`. */
export function useDocsMount(path: string): void {
  docsMount = path;
}

/**
 * The URL of a file under shoebox/outsole/: `shoeAsset('docs/swagger-ui.css')` →
 * `/svc/docs/swagger-ui.css`, `shoeAsset('openapi.json')` → `/svc/docs/openapi.json`
 * (with svc.json `endpoints.docs` of the application being served). Other paths have no
 * URL and throw, so a broken link shows up where it is written.
 */
export function shoeAsset(relativePath: string): string {
  const parts = relativePath.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 1 && parts[0] === OPENAPI_FILE) return `${docsMount}/${OPENAPI_FILE}`;
  if (parts.length === 2 && parts[0] === 'docs' && isAssetName(parts[1]!) && parts[1] !== OPENAPI_FILE) return `${docsMount}/${parts[1]}`;
  throw new Error(
    `shoeAsset('${relativePath}'): only "${OPENAPI_FILE}" and files directly in shoebox/outsole/docs/ ("docs/<file>", a plain file name) have a URL.`,
  );
}
