#!/usr/bin/env node
// The CLI is TypeScript; tsx loads it so that no build step stands between a clone and
// `npx svc`. Serving itself runs the esbuild bundle in .svc/, which carries the `serve`
// command too (compiler/bundle/serve-main.ts): `svc serve` starts from the bundle alone,
// without tsx or the compiler, and falls back to the full CLI for anything the bundle's
// command hands back (usage errors, --help) or when there is no such bundle.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const served = argv[0] === 'serve' ? await serveFromBuild(argv) : undefined;
if (served !== undefined) process.exitCode = served;
else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../compiler/cli/main.ts');
  process.exitCode = await main(argv);
}

/** The exit code of the bundle's `svc serve`, or undefined when the full CLI must run. */
async function serveFromBuild(args) {
  const bundle = join(process.cwd(), '.svc', 'app.mjs');
  const found = await access(bundle).then(() => true, () => false);
  if (!found) return undefined;
  const { serveMain } = await import(pathToFileURL(bundle).href);
  return typeof serveMain === 'function' ? serveMain(args) : undefined;
}
