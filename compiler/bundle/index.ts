// .svc/entry.ts → .svc/app.mjs. The framework runtime and the application are bundled
// together; npm packages stay external and load from node_modules at run time.
import { rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Diagnostic } from '../diagnostics.ts';
import { frameworkDependencies, frameworkRoot, svcModules } from '../framework.ts';
import { installedPackages } from '../packages.ts';
import { bundleProblems } from './problems.ts';

/**
 * npm packages stay external and load by name, as in any Node program. The runtime's
 * own dependencies are the exception in a tree outside any install (a scratch folder
 * using this checkout's `svc`): the bundle imports the framework's copies by absolute
 * path. Only those few imports reach this plugin; the rest resolve inside esbuild,
 * without a round trip to this process (a third of esbuild's time in a `svc tread` rebuild at
 * 1,000 routes).
 */
function frameworkPackages(root: string): esbuild.Plugin[] {
  const installed = installedPackages(join(root, 'package.json'));
  const unreachable = frameworkDependencies().filter((name) => !installed(name));
  if (unreachable.length === 0) return [];
  const filter = new RegExp(`^(${unreachable.map(escapeRegExp).join('|')})(/|$)`);
  return [
    {
      name: 'framework-packages',
      setup(build) {
        build.onResolve({ filter }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)), external: true }));
      },
    },
  ];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The bundle's entry: the generated entry plus `serveMain`, the `svc serve` command, so
 * that serving needs nothing but the bundle and its npm packages (bin/svc.js), and
 * `applyTimeouts`, `trackConnections`, `drain` and the loggers of what nothing caught, for the server `svc tread` keeps
 * listening across builds.
 */
const entry = (root: string): esbuild.StdinOptions => ({
  contents: [
    `export * from './entry.ts';`,
    `export { serveMain } from ${JSON.stringify(relative(join(root, '.svc'), serveMain).split(sep).join('/'))};`,
    `export { applyTimeouts, drain, logUncaughtException, logUnhandledRejection, trackConnections } from 'svc/server';`,
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
  // `svc tread` serves without source maps: writing one, and Node reading it at each
  // load, would add about 30 ms to a rebuild at 1,000 routes. Its stack traces point
  // into .svc/app.mjs instead, whose `// routes/api.ts` comments say where code came from.
  sourcemap: !incremental,
  legalComments: 'none',
  logLevel: 'silent',
  // Relative to the project, so that the bundle names no folder of the machine it was
  // built on: a tree built here and copied elsewhere (a deploy) is byte for byte the same.
  define: { 'import.meta.svcRoot': JSON.stringify(relative(root, frameworkRoot).split(sep).join('/')) },
  alias: svcModules,
  // Relative imports resolve from the path a file was found at, as the analysis reads them:
  // from routes/api.ts, not from the folder a symlinked routes/ (or file) points into.
  preserveSymlinks: true,
  packages: 'external',
  plugins: frameworkPackages(root),
  // Which files went in: `svc tread` watches them (build-inputs.ts).
  metafile: true,
});

/** esbuild contexts kept warm for `svc tread`, whose rebuilds then re-read only what changed. */
const contexts = new Map<string, esbuild.BuildContext>();

export interface Bundled {
  /** What esbuild found instead of writing the bundle (nothing is written then). */
  problems: Diagnostic[];
  /** The files the bundle was made of, absolute; none when it failed. */
  inputs: string[];
}

/** Writes .svc/app.mjs. */
export async function bundle(root: string, incremental = false): Promise<Bundled> {
  try {
    const { metafile } = incremental ? await (await warmContext(root)).rebuild() : await esbuild.build(options(root, false));
    // Keys are relative to absWorkingDir; the generated entry (`<stdin>`) is no file.
    const inputs = Object.keys(metafile?.inputs ?? {}).filter((path) => path !== '<stdin>').map((path) => resolve(root, path));
    return { problems: [], inputs };
  } catch (failure) {
    const problems = bundleProblems(failure);
    if (problems) return { problems, inputs: [] };
    throw failure;
  }
}

/** Stops the esbuild processes kept warm, so that a `svc tread` that cannot go on can exit. */
export async function disposeContexts(): Promise<void> {
  await Promise.all([...contexts.values()].map((context) => context.dispose()));
  contexts.clear();
}

async function warmContext(root: string): Promise<esbuild.BuildContext> {
  let context = contexts.get(root);
  if (context === undefined) {
    contexts.set(root, (context = await esbuild.context(options(root, true))));
    await rm(join(root, '.svc', 'app.mjs.map'), { force: true }); // a map from `svc build` would describe another bundle
  }
  return context;
}
