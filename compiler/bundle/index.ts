// .svc/entry.ts → .svc/app.mjs. The framework runtime and the application are bundled
// together; npm packages stay external and load from node_modules at run time.
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const frameworkRoot = fileURLToPath(new URL('../../', import.meta.url));

/** `svc` and `svc/server` resolve to the framework's sources wherever the project lives. */
const svcImports: esbuild.Plugin = {
  name: 'svc-imports',
  setup(build) {
    build.onResolve({ filter: /^svc(\/server)?$/ }, (args) => ({
      path: join(frameworkRoot, 'runtime', args.path === 'svc' ? 'index.ts' : 'server/index.ts'),
    }));
  },
};

/**
 * The bundle's entry: the generated entry plus `serveMain`, the `svc serve` command, so
 * that serving needs nothing but the bundle and its npm packages (bin/svc.js).
 */
const entry = (root: string): esbuild.StdinOptions => ({
  contents: [
    `export * from './entry.ts';`,
    `export { serveMain } from ${JSON.stringify(relative(join(root, '.svc'), serveMain).split(sep).join('/'))};`,
    '',
  ].join('\n'),
  resolveDir: join(root, '.svc'),
  sourcefile: 'bundle-entry.ts',
  loader: 'ts',
});

const serveMain = join(frameworkRoot, 'compiler', 'bundle', 'serve-main.ts');

const options = (root: string): esbuild.BuildOptions => ({
  absWorkingDir: root,
  stdin: entry(root),
  outfile: '.svc/app.mjs',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'silent',
  plugins: [svcImports],
});

/** esbuild contexts kept warm for `svc tread`, whose rebuilds then re-read only what changed. */
const contexts = new Map<string, esbuild.BuildContext>();

export async function bundle(root: string, incremental = false): Promise<void> {
  if (!incremental) {
    await esbuild.build(options(root));
    return;
  }
  let context = contexts.get(root);
  if (context === undefined) contexts.set(root, (context = await esbuild.context(options(root))));
  await context.rebuild();
}
