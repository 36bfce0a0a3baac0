// Imports a finished build (.svc/app.mjs) for `svc serve`.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppHandler, HandlerOptions } from '../../runtime/server/index.ts';

export interface BuiltApp {
  handler(options: HandlerOptions): Promise<AppHandler>;
  /** Logs to the svc.log of the application this build serves. */
  logUnhandledRejection(reason: unknown): void;
  logUncaughtException(error: unknown): void;
}

export class MissingBuildError extends Error {}

export async function loadBuild(root: string): Promise<BuiltApp> {
  const file = join(root, '.svc', 'app.mjs');
  try {
    await access(file);
  } catch {
    throw new MissingBuildError(`No build found at ${file}. Run \`svc build\` first.`);
  }
  // As bin/svc.js does for the bundle's own `serve`: stack traces name the TypeScript.
  process.setSourceMapsEnabled(true);
  const built = (await import(pathToFileURL(file).href)) as Partial<BuiltApp>;
  // An emptied or hand-written file loads, and would fail later inside svc with a stack.
  if (typeof built.handler !== 'function' || typeof built.logUnhandledRejection !== 'function' || typeof built.logUncaughtException !== 'function') {
    throw new MissingBuildError(`${file} does not hold what svc build writes (it was edited or damaged): run \`svc build\`.`);
  }
  return built as BuiltApp;
}
