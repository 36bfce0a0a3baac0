// V8's code cache for ts-morph on Node versions without `module.enableCompileCache`
// (Node 20). Compiling ts-morph and the TypeScript it bundles (13 MB of CommonJS) takes a
// few hundred ms of every `svc` run there; with the cache V8 deserialises the code instead.
//
// Their files are compiled through vm.Script with `cachedData`, one cache file per module
// in node_modules/.cache/svc/v8/: a line of JSON, then V8's data. The JSON names the Node
// build, the module's path and the CRC-32 of its source and of the data, because V8
// itself checks only its own version, its flags and the source's length, and in release
// builds does not check the data's integrity. Anything that does not match is a miss; so
// is data V8 rejects (other V8 flags).
//
// Only these packages: other CommonJS modules the CLI loads are small enough that V8
// compiles them as fast as it reads a cache (measured: 141 modules, 1 MB, ~20 ms either
// way), and on Node 20 code made from cached data loses its `import()` callback, so a
// module that calls import() must never be cached; these do not.
//
// A missing, stale or rejected cache is written when the process exits (`svc tread` too:
// it exits on SIGINT and SIGTERM), from the script as the command left it: then it holds
// every function the command compiled (the parser, the checker), not only the module's
// top level. Files are written under a temporary name and renamed; a folder that cannot
// be written means running without the cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { writeAtomically } from './cache-folder.js';

const FORMAT = 1;
const NODE_BUILD = `${process.version} ${process.arch} V8 ${process.versions.v8}`;
const NODE_MODULES = `${sep}node_modules${sep}`;
const PACKAGES = [`ts-morph${sep}`, `@ts-morph${sep}common${sep}`];
const debug = process.env.SVC_DEBUG_COMPILE_CACHE === '1' ? (message) => process.stderr.write(`svc compile cache: ${message}\n`) : () => {};

/** Compiles ts-morph's modules with V8's code cache kept in `folder`, from here on; writes what was missing at exit. */
export function enableCompileCache(folder) {
  const compile = Module.prototype._compile;
  /** Cache file → what to write there at exit. */
  const unsaved = new Map();
  Module.prototype._compile = function (content, filename, format) {
    if (format === 'module' || !cacheable(filename)) return compile.call(this, content, filename, format);
    const cacheFile = join(folder, `${basename(filename)}-${createHash('sha1').update(filename).digest('hex').slice(0, 16)}`);
    const key = { format: FORMAT, node: NODE_BUILD, file: filename, source: crc32(content) };
    const cachedData = read(cacheFile, key);
    let script;
    try {
      script = new Script(Module.wrap(content), { filename, cachedData });
    } catch {
      // ES module syntax Node would detect and load as such, or a syntax error Node reports its own way.
      return compile.call(this, content, filename, format);
    }
    if (cachedData && !script.cachedDataRejected) debug(`hit ${filename}`);
    else {
      if (cachedData) debug(`rejected ${filename}`);
      unsaved.set(cacheFile, { key, script });
    }
    return run(this, script.runInThisContext({ displayErrors: true }), filename);
  };
  process.once('exit', () => write(folder, unsaved));
}

function cacheable(filename) {
  const start = filename.lastIndexOf(NODE_MODULES);
  return start >= 0 && PACKAGES.some((name) => filename.startsWith(name, start + NODE_MODULES.length));
}

/** The cached data for `key`, or undefined (with the reason, when debugging). */
function read(cacheFile, key) {
  let bytes;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    debug(`miss ${key.file}`);
    return undefined;
  }
  const end = bytes.indexOf(10);
  const header = end < 0 ? undefined : parse(bytes.subarray(0, end).toString());
  const data = bytes.subarray(end + 1);
  if (header && Object.keys(key).some((name) => header[name] !== key[name])) debug(`stale ${key.file}`);
  else if (header?.size !== data.length || header.data !== crc32(data)) debug(`damaged ${key.file}`);
  else return data;
  return undefined;
}

function parse(json) {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** Runs a module's wrapper function as Node's own `_compile` would. */
function run(module, wrapper, filename) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return Reflect.apply(wrapper, module.exports, [module.exports, require, module, filename, dirname(filename)]);
}

function write(folder, unsaved) {
  if (unsaved.size === 0) return;
  try {
    mkdirSync(folder, { recursive: true });
    for (const [cacheFile, { key, script }] of unsaved) {
      const data = script.createCachedData();
      const header = JSON.stringify({ ...key, size: data.length, data: crc32(data) });
      writeAtomically(cacheFile, Buffer.concat([Buffer.from(`${header}\n`), data]));
      debug(`wrote ${cacheFile}`);
    }
  } catch (error) {
    // Read-only, full, or not a folder: the next run compiles from source again.
    debug(`cannot write ${folder}: ${error.code ?? error.message}`);
  }
}
