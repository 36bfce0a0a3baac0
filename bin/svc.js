#!/usr/bin/env node
// `svc serve` starts from the esbuild bundle in .svc/, which carries the `serve` command
// too (compiler/bundle/serve-main.ts): without the compiler or the other commands, and
// falling back to the full CLI for anything the bundle's command hands back (usage
// errors, --help) or when there is no such bundle. The full CLI runs from its own cached
// bundle (cli-bundle.js), or, when that cannot be had, from the TypeScript sources
// through tsx, so that no build step stands between a clone and `npx svc`.
import { access } from 'node:fs/promises';
import module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheFolder, COMPILE_CACHE } from './cache-folder.js';
import { bundledMain } from './cli-bundle.js';
import { projectRoot } from './project-root.js';
import { outliveLostOutput } from './stdio-errors.js';

// Node 22.1+ keeps V8's compiled code of the modules loaded from here on (ts-morph's
// TypeScript above all) in a cache on disk; on Node 20 the full CLI installs its own.
module.enableCompileCache?.();
outliveLostOutput();

const root = projectRoot(process.cwd());
if (root !== process.cwd()) process.chdir(root);

const argv = process.argv.slice(2);
process.exitCode = await run(argv).catch((e) => {
  if (e?.code !== 'EMFILE' && e?.code !== 'ENFILE') throw e;
  // Node's loader reads a package's modules all at once (kysely has hundreds).
  console.error(`svc: too many open files (${e.code}) while loading ${e.path ?? 'svc'}: the limit of open files (\`ulimit -n\`) is too low for Node to load svc and its packages; raise it to 1024 or more.`);
  return 1;
});
// The command has ended, its output, logs and metrics are written: the application's own
// timers or sockets (a module a migration imports may start one) must not keep the process
// alive. The delay lets a worker's last messages reach the primary; a process with nothing
// left to do exits before it.
// process.exitCode, not `code`: a failure reported meanwhile (svc cobble) may have set it.
setTimeout(() => process.exit(), 1000).unref();

async function run(args) {
  const served = args[0] === 'serve' ? await serveFromBuild(args) : undefined;
  return served ?? (await fullCli(args));
}

async function fullCli(args) {
  await enableNodeTwentyCompileCache();
  const main = (await bundledMain()) ?? (await mainFromSources());
  return main(args);
}

/** The exit code of the bundle's `svc serve`, or undefined when the full CLI must run. */
async function serveFromBuild(args) {
  const bundle = join(process.cwd(), '.svc', 'app.mjs');
  const found = await access(bundle).then(() => true, () => false);
  if (!found) return undefined;
  // Stack traces in shoebox/logs/svc.log then name the TypeScript a frame came from, not
  // a line of .svc/app.mjs. Node reads the map as the bundle loads: 15-25 ms at 1,000
  // routes, within the noise of a whole start-up (bench/README.md, HTTP).
  process.setSourceMapsEnabled(true);
  let serveMain;
  try {
    ({ serveMain } = await import(pathToFileURL(bundle).href));
  } catch (e) {
    const missing = missingPackage(e);
    if (missing !== null) {
      console.error(`svc: .svc/app.mjs needs the npm package "${missing}", which is not installed where it looks (the project's node_modules): run \`npm install\`, and \`svc build\` if the project moved since it was built.`);
      return 1;
    }
    if (!unparsable(e)) throw e; // the application's own code failing as it loads keeps its stack
    console.error(`svc: .svc/app.mjs cannot be loaded (${e.name}: ${e.message}): it was damaged or not written whole; run \`svc build\`.`);
    return 1;
  }
  return typeof serveMain === 'function' ? serveMain(args) : undefined;
}

/**
 * The package a bundle imports that Node cannot find (a deploy without `npm install`, a
 * project copied away from the node_modules it was built beside), or null. The bundle
 * keeps npm packages external; an application's own missing file fails at `svc build`.
 */
function missingPackage(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || typeof error.message !== 'string') return null;
  return /^Cannot find package '([^']+)' imported from /.exec(error.message)?.[1] ?? null;
}

/**
 * A bundle that does not parse (cut short by a full disk or a copy, edited by hand):
 * svc build never writes one. Its SyntaxError comes from Node's loader alone, while one
 * the application's code throws as it runs (`JSON.parse` at a module's top level) has a
 * frame of that code.
 */
function unparsable(error) {
  if (error?.name !== 'SyntaxError' || typeof error.stack !== 'string') return false;
  return error.stack.split('\n').filter((line) => /^\s+at /.test(line)).every((frame) => /\(node:|at (async )?node:/.test(frame));
}

/** Node 20's stand-in for `module.enableCompileCache` (compile-cache.js), which honours the same switch. */
async function enableNodeTwentyCompileCache() {
  if (module.enableCompileCache || process.env.NODE_DISABLE_COMPILE_CACHE === '1') return;
  (await import('./compile-cache.js')).enableCompileCache(join(cacheFolder, COMPILE_CACHE));
}

async function mainFromSources() {
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../compiler/cli/main.ts')).main;
}
