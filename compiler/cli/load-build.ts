// Imports a finished build (.svc/app.mjs). `version` busts the ESM cache so tread can
// load each rebuild into the same process.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppHandler, BootOptions, HandlerOptions } from '../../runtime/server/index.ts';
import type { Server } from 'node:http';

export interface BuiltApp {
  start(options: BootOptions): Promise<Server>;
  handler(options: HandlerOptions): Promise<AppHandler>;
}

export class MissingBuildError extends Error {}

export async function loadBuild(root: string, version = 0): Promise<BuiltApp> {
  const file = join(root, '.svc', 'app.mjs');
  try {
    await access(file);
  } catch {
    throw new MissingBuildError(`No build found at ${file}. Run \`svc build\` first.`);
  }
  const url = pathToFileURL(file);
  if (version) url.searchParams.set('v', String(version));
  return (await import(url.href)) as BuiltApp;
}
