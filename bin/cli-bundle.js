// The CLI runs from an esbuild bundle of compiler/cli/main.ts: one bundle imports in
// about half the time tsx takes over the ~100 TypeScript files it is made of. The bundle
// is cached in node_modules/.cache/svc/ under the framework, so that its bare package
// imports resolve from there upwards, as they do from the sources. Code splitting gives
// each command's code and npm packages their own chunks, loaded only when it runs.
//
// stamp.json says which files make the bundle (esbuild's metafile) with their mtime and
// size, and which files it wrote with their size; any difference means rebuild. Every
// file is written to a temporary name and renamed, chunks before the stamp, so a process
// reading the cache never sees half a file or a stamp whose chunks are not all there.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheFolder, COMPILE_CACHE, root, writeAtomically } from './cache-folder.js';

const stampFile = join(cacheFolder, 'stamp.json');
const entryPoint = 'compiler/cli/main.ts'; // as esbuild names it in the metafile
// Not in the metafile, yet they shape the output: how it is built, and the TypeScript settings.
const buildInputs = [fileURLToPath(import.meta.url), join(root, 'tsconfig.json')];
// Files another process may still be loading: a new build deletes older ones only after this.
const SETTLE_MS = 60_000;
// File systems stamp times coarsely (a clock tick; whole seconds on some): an edit made
// while esbuild reads may carry a time this much before the build started.
const MTIME_SLACK_MS = 2000;

/** The CLI's `main`, from the cached bundle (built first if missing or stale), or null when there is none to be had. */
export async function bundledMain() {
  try {
    const stamp = freshStamp() ?? (await rebuild());
    return (await import(pathToFileURL(join(cacheFolder, stamp.entry)).href)).main;
  } catch {
    // A read-only install, esbuild missing or failing, a damaged chunk: bin/svc.js uses
    // tsx. Without the stamp, the next run builds afresh over whatever was damaged.
    await rm(stampFile, { force: true }).catch(() => {});
    return null;
  }
}

/** The stamp, when every input and every written file is still as it records. */
function freshStamp() {
  const stamp = readStamp();
  try {
    if (stamp?.root !== root) return undefined; // none yet, or the checkout moved: the bundle holds the old path
    for (const [file, [mtimeMs, size]] of Object.entries(stamp.inputs)) {
      const stats = statSync(join(root, file), { throwIfNoEntry: false });
      if (stats?.mtimeMs !== mtimeMs || stats.size !== size) return undefined;
    }
    for (const [file, size] of Object.entries(stamp.outputs)) {
      if (statSync(join(cacheFolder, file), { throwIfNoEntry: false })?.size !== size) return undefined;
    }
    return stamp;
  } catch {
    return undefined; // a stamp of another shape
  }
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

async function rebuild() {
  const started = Date.now();
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entryPoint],
    outdir: cacheFolder,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // .mjs: there is no package.json scope inside node_modules/ to say "type": "module".
    outExtension: { '.js': '.mjs' },
    // Content-hashed names: a changed module gets a new file and never overwrites one in use.
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    define: { 'import.meta.svcRoot': JSON.stringify(root) },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const outputs = result.outputFiles.map((file) => ({ name: basename(file.path), contents: file.contents }));
  const inputs = [...Object.keys(result.metafile.inputs).map((file) => join(root, file)), ...buildInputs];
  const stamp = {
    root,
    entry: basename(Object.keys(result.metafile.outputs).find((file) => result.metafile.outputs[file].entryPoint === entryPoint)),
    inputs: Object.fromEntries(inputs.map((file) => [relative(root, file), stampOf(file)])),
    outputs: Object.fromEntries(outputs.map(({ name, contents }) => [name, contents.length])),
  };
  const previous = readStamp();
  mkdirSync(cacheFolder, { recursive: true });
  for (const { name, contents } of outputs) writeAtomically(join(cacheFolder, name), contents);
  // A source edited while esbuild read it may be in the bundle in either state: use this
  // bundle once, but leave no stamp, so the next run builds again.
  if (Object.values(stamp.inputs).some(([mtimeMs]) => mtimeMs >= started - MTIME_SLACK_MS)) return stamp;
  writeAtomically(stampFile, JSON.stringify(stamp));
  removeOldFiles([stamp, previous]);
  return stamp;
}

function stampOf(file) {
  const { mtimeMs, size } = statSync(file);
  return [mtimeMs, size];
}

/** Deletes what neither this build nor the one before it wrote, once it is old enough that no process can still be loading it. */
function removeOldFiles(stamps) {
  const keep = new Set([basename(stampFile), COMPILE_CACHE, ...stamps.flatMap((stamp) => Object.keys(stamp?.outputs ?? {}))]);
  for (const name of readdirSync(cacheFolder)) {
    const file = join(cacheFolder, name);
    const stats = statSync(file, { throwIfNoEntry: false }); // another process may be clearing up too
    if (!keep.has(name) && stats && Date.now() - stats.mtimeMs > SETTLE_MS) rmSync(file, { force: true });
  }
}
