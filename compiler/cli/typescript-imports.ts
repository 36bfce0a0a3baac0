// Lets `import()` load the project's own TypeScript (cobble's migrations). bin/svc.js
// runs the CLI from a JavaScript bundle with no TypeScript loader, so tsx registers here,
// once, on first need. Run from the sources, this file was itself loaded as TypeScript:
// a loader is already in place and a second one would only transform every file twice.
// Either way `'svc'` resolves to this checkout when the project has no svc installed.
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { frameworkRoot, svcModules } from '../framework.ts';

let ready: Promise<void> | undefined;

export function allowTypeScriptImports(): Promise<void> {
  ready ??= (async () => {
    const data = Object.fromEntries(Object.entries(svcModules).map(([specifier, file]) => [specifier, pathToFileURL(file).href]));
    register(pathToFileURL(join(frameworkRoot, 'compiler', 'cli', 'svc-resolve-hook.mjs')), { data });
    if (!import.meta.url.endsWith('.ts')) (await import('tsx/esm/api')).register();
  })();
  return ready;
}
