// Where this checkout of svc lives: `'svc'` resolves here for any project tree, in
// analysis (ts-morph) and in the bundle (esbuild) alike, and svc's own files (templates,
// package.json, default views) are read from here. Code bundled elsewhere (the CLI in
// node_modules/.cache/svc/, a project's .svc/app.mjs) gets the folder as the `define`d
// `import.meta.svcRoot`; run from the sources it is this file's parent folder. Either
// way it ends in a separator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const frameworkRoot = import.meta.svcRoot ?? fileURLToPath(new URL('..', import.meta.url));
export const svcEntry = join(frameworkRoot, 'runtime', 'index.ts');
/** `svc` and `svc/server` are these files wherever the project lives, installed or not. */
export const svcModules: Readonly<Record<string, string>> = {
  svc: svcEntry,
  'svc/server': join(frameworkRoot, 'runtime', 'server', 'index.ts'),
};
/** The runtime's folder as TypeScript spells file names (`/` separators), to tell svc's own files from the application's. */
export const frameworkRuntime = `${frameworkRoot.replaceAll('\\', '/')}runtime/`;

/** The npm packages the runtime imports by name come from these (package.json `dependencies`). */
export function frameworkDependencies(): string[] {
  const manifest = JSON.parse(readFileSync(join(frameworkRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(manifest.dependencies);
}
