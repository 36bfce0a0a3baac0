// .svc/entry.ts → .svc/app.mjs. The framework runtime and the application are bundled
// together; npm packages stay external and load from node_modules at run time.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { frameworkRoot, svcEntry } from '../framework.ts';


/** `svc` and `svc/server` resolve to the framework's sources wherever the project lives. */
const svcImports: esbuild.Plugin = {
  name: 'svc-imports',
  setup(build) {
    build.onResolve({ filter: /^svc(\/server)?$/ }, (args) => ({
      path: args.path === 'svc' ? svcEntry : join(frameworkRoot, 'runtime', 'server', 'index.ts'),
    }));
  },
};

/**
 * npm packages stay external. A project that has them in its own node_modules imports
 * them by name, as any Node program does; a tree outside any install (a scratch folder
 * using this checkout's `svc`) imports the framework's copies by absolute path.
 */
const npmPackages = (root: string): esbuild.Plugin => ({
  name: 'npm-packages',
  setup(build) {
    const lookup = createRequire(join(root, 'package.json')).resolve.paths('') ?? [];
    const inProject = (name: string): boolean => lookup.some((dir) => existsSync(join(dir, name)));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.split('/').slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
      if (inProject(name)) return { path: args.path, external: true };
      const resolved = import.meta.resolve(args.path);
      return { path: resolved.startsWith('file:') ? fileURLToPath(resolved) : args.path, external: true };
    });
  },
});

/**
 * The bundle's entry: the generated entry plus `serveMain`, the `svc serve` command, so
 * that serving needs nothing but the bundle and its npm packages (bin/svc.js), and
 * `applyTimeouts`, for the server `svc tread` keeps listening across builds.
 */
const entry = (root: string): esbuild.StdinOptions => ({
  contents: [
    `export * from './entry.ts';`,
    `export { serveMain } from ${JSON.stringify(relative(join(root, '.svc'), serveMain).split(sep).join('/'))};`,
    `export { applyTimeouts } from 'svc/server';`,
    '',
  ].join('\n'),
  resolveDir: join(root, '.svc'),
  sourcefile: 'bundle-entry.ts',
  loader: 'ts',
});

const serveMain = join(frameworkRoot, 'compiler', 'bundle', 'serve-main.ts');

const options = (root: string, incremental: boolean): esbuild.BuildOptions => ({
  absWorkingDir: root,
  stdin: entry(root),
  outfile: '.svc/app.mjs',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // `svc tread` serves without source maps (its server does not enable them), so its
  // rebuilds skip writing one, and print without indentation: together about half of a
  // rebuild at 1,000 routes. Names stay, so stack traces still read.
  sourcemap: !incremental,
  minifyWhitespace: incremental,
  legalComments: 'none',
  logLevel: 'silent',
  define: { 'import.meta.svcRoot': JSON.stringify(frameworkRoot) },
  plugins: [svcImports, npmPackages(root)],
});

/** esbuild contexts kept warm for `svc tread`, whose rebuilds then re-read only what changed. */
const contexts = new Map<string, esbuild.BuildContext>();

export async function bundle(root: string, incremental = false): Promise<void> {
  if (!incremental) {
    await esbuild.build(options(root, false));
    return;
  }
  let context = contexts.get(root);
  if (context === undefined) {
    contexts.set(root, (context = await esbuild.context(options(root, true))));
    await rm(join(root, '.svc', 'app.mjs.map'), { force: true }); // a map from `svc build` would describe another bundle
  }
  await context.rebuild();
}
