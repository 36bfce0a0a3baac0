// GET /shoebox/outsole/<path>: the files of shoebox/outsole/, whose URLs shoeAsset()
// gives. Patterns have no wildcard, so the mount is no route: the pipeline hands it the
// GET and HEAD requests under it that no route takes (an application route there wins).
// Every segment must be a plain file name, so nothing outside the folder and no hidden
// file is reachable. The folder holds the API docs too, so svc.json `endpoints.guarded`
// guards it like the built-in endpoints.
import { join } from 'node:path';
import type { Context } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import type { BoundRoute } from '../server/bind.ts';
import type { BuiltinSetup } from '../server/builtins.ts';
import { isAssetName, OUTSOLE_MOUNT } from '../shoebox/assets.ts';
import { shoeboxPath } from '../shoebox/paths.ts';
import { bearerGuard } from './guard.ts';
import { contentType, sendFile, StaticFiles } from './static-file.ts';

/** Not fingerprinted: clients revalidate (ETag) after an hour. */
const MAX_AGE = 3600;

const PREFIX = `${OUTSOLE_MOUNT}/`;

/** Whether `path` (canonical) names a file under the mount. */
export const underOutsole = (path: string): boolean => path.startsWith(PREFIX);

export function outsoleRoute(setup: Pick<BuiltinSetup, 'root' | 'config'>): BoundRoute {
  const guard = bearerGuard(setup.config.endpoints.guarded);
  const folder = shoeboxPath(setup.root, 'outsole');
  const files = new StaticFiles(folder);
  const cacheControl = `${guard === null ? 'public' : 'private'}, max-age=${MAX_AGE}`;
  const invoke = async (ctx: Context): Promise<Buffer | Response | null> => {
    guard?.(ctx);
    const relative = ctx.path.slice(PREFIX.length);
    const parts = relative.split('/');
    const file = parts.every(isAssetName) ? await files.load(join(folder, ...parts)) : null;
    if (file === null) throw new HttpError(404, `No file ${relative} in shoebox/outsole/.`);
    return sendFile(ctx, file, contentType(relative), cacheControl);
  };
  return { info: { id: -1, method: 'GET', pattern: `${OUTSOLE_MOUNT}/…`, paramNames: [], source: 'svc' }, invoke, middleware: [] };
}
