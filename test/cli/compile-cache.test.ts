// On Node versions without module.enableCompileCache, the full CLI keeps V8's code cache
// of ts-morph (and the TypeScript it bundles) in node_modules/.cache/svc/v8/
// (bin/compile-cache.js). The tests run `svc build` on an empty project from one copy of
// the framework (its CLI bundle made once), each from an empty compile cache, and read
// what SVC_DEBUG_COMPILE_CACHE=1 reports on stderr.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, cp, readdir, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { basename, join, sep } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { eventually, svcServer } from '../support/cli.ts';
import { cacheFolderOf, copyFramework, svcFrom, type RunOptions } from '../support/framework-copy.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

const TYPESCRIPT = `${sep}${join('@ts-morph', 'common', 'dist', 'typescript.js')}`;
/** Copied into the framework's node_modules, where it resolves first, so that a test may edit it. */
const TS_MORPH = `${sep}${join('ts-morph', 'dist', 'ts-morph.js')}`;

interface Run {
  /** Module → hit, miss, damaged, stale or rejected. */
  events: Map<string, string>;
  /** The cache files written. */
  wrote: string[];
  stderr: string;
}

let framework: string;
/** Empty: only the built-in routes. */
let project: string;
let typed: string;

const compileCache = (): string => join(cacheFolderOf(framework), 'v8');

/** `svc build` in the empty project, which must succeed. */
function build(options: RunOptions = {}): Run {
  const result = svcFrom(framework, ['build'], { cwd: project, ...options, env: { SVC_DEBUG_COMPILE_CACHE: '1', ...options.env } });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /built \d+ routes/);
  return parse(result.stderr);
}

function parse(stderr: string): Run {
  const run: Run = { events: new Map(), wrote: [], stderr };
  for (const [, event, path] of stderr.matchAll(/^svc compile cache: (\w+) (.+)$/gm)) {
    if (event === 'wrote') run.wrote.push(path!);
    else if (event !== 'cannot') run.events.set(path!, event!);
  }
  return run;
}

const eventOf = (run: Run, suffix: string): string | undefined => [...run.events].find(([path]) => path.endsWith(suffix))?.[1];
const cacheFileOf = (run: Run, name: string): string => {
  const file = run.wrote.find((path) => basename(path).startsWith(`${name}-`));
  assert.ok(file, `a cache file for ${name} was written:\n${run.stderr}`);
  return file;
};
const everyEvent = (run: Run): Set<string> => new Set(run.events.values());

/** A first build: every module compiled from source and its cache written. */
function coldBuild(): Run {
  const run = build();
  assert.equal(eventOf(run, TYPESCRIPT), 'miss', run.stderr);
  assert.deepEqual(everyEvent(run), new Set(['miss']));
  return run;
}

async function rewriteHeader(file: string, edit: (header: Record<string, unknown>) => void): Promise<void> {
  const bytes = await readFile(file);
  const end = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, end).toString()) as Record<string, unknown>;
  edit(header);
  await writeFile(file, Buffer.concat([Buffer.from(JSON.stringify(header)), bytes.subarray(end)]));
}

describe('the compile cache on Node 20', { skip: 'enableCompileCache' in module ? 'this Node has its own compile cache; bin/svc.js turns it on instead' : false }, () => {
  before(async () => {
    framework = await copyFramework();
    // Its files, not a link to them (node_modules may be linked in): a test edits them.
    await cp(join(repoRoot, 'node_modules', 'ts-morph'), join(framework, 'node_modules', 'ts-morph'), { recursive: true, dereference: true });
    project = await makeProject({});
    // Its route's type reaches the OpenAPI document through the checker; the empty project has no such route.
    typed = await makeProject({
      'routes/api.ts': [
        "import type { Router } from 'svc';",
        '',
        'interface User { id: number; name: string; tags: string[] }',
        '',
        "export default (router: Router) => { router.get('/users/{id}', (id: number): User => ({ id, name: 'n', tags: [] })); };",
        '',
      ].join('\n'),
    });
    build();
  });

  beforeEach(() => rm(compileCache(), { recursive: true, force: true }));

  after(async () => {
    for (const folder of [framework, project, typed]) await removeProject(folder);
  });

  test('the first build writes the cache, and the next loads every module from it', async () => {
    const first = coldBuild();
    assert.equal(first.wrote.length, first.events.size, 'one cache file per module');
    const typescript = cacheFileOf(first, 'typescript.js');
    const written = (await stat(typescript)).mtimeMs;
    const second = build();
    assert.deepEqual([...second.events.keys()].sort(), [...first.events.keys()].sort());
    assert.deepEqual(everyEvent(second), new Set(['hit']));
    assert.deepEqual(second.wrote, []);
    assert.equal((await stat(typescript)).mtimeMs, written);
  });

  test('the cache holds the code the command ran, not only the top level', async () => {
    const typescriptCacheSize = async (run: Run): Promise<number> => (await stat(cacheFileOf(run, 'typescript.js'))).size;
    const empty = await typescriptCacheSize(coldBuild());
    await rm(compileCache(), { recursive: true });
    const checked = await typescriptCacheSize(build({ cwd: typed }));
    assert.ok(checked > empty * 1.2, `${checked} bytes after checking a route, ${empty} without`);
  });

  test('a build with the cache writes what a build without it writes', async () => {
    const output = async (): Promise<Record<string, string>> => {
      const folder = join(typed, '.svc');
      return Object.fromEntries(await Promise.all((await readdir(folder)).map(async (name) => [name, await readFile(join(folder, name), 'utf8')])));
    };
    assert.deepEqual(everyEvent(build({ cwd: typed, env: { NODE_DISABLE_COMPILE_CACHE: '1' } })), new Set());
    const uncached = await output();
    build({ cwd: typed });
    assert.deepEqual(everyEvent(build({ cwd: typed })), new Set(['hit']));
    assert.deepEqual(await output(), uncached);
  });

  for (const [damage, spoil] of [
    ['altered data', async (file: string) => {
      const bytes = await readFile(file);
      for (let i = bytes.length - 4096; i < bytes.length; i++) bytes[i] ^= 0xff;
      await writeFile(file, bytes);
    }],
    ['a truncated file', async (file: string) => truncate(file, Math.floor((await stat(file)).size / 2))],
    ['no header', (file: string) => writeFile(file, 'not a cache file')],
  ] as const) {
    test(`a cache file with ${damage} is not used, and is replaced`, async () => {
      const typescript = cacheFileOf(coldBuild(), 'typescript.js');
      await spoil(typescript);
      const run = build();
      assert.equal(eventOf(run, TYPESCRIPT), 'damaged');
      assert.ok(run.wrote.includes(typescript));
      assert.equal(eventOf(build(), TYPESCRIPT), 'hit');
    });
  }

  test('a cache made for other source or another Node build is not used, and is replaced', async () => {
    const typescript = cacheFileOf(coldBuild(), 'typescript.js');
    for (const edit of [(header: Record<string, unknown>) => (header.source = Number(header.source) ^ 1), (header: Record<string, unknown>) => (header.node = 'v19.0.0')]) {
      await rewriteHeader(typescript, edit);
      const run = build();
      assert.equal(eventOf(run, TYPESCRIPT), 'stale');
      assert.ok(run.wrote.includes(typescript));
      assert.equal(eventOf(build(), TYPESCRIPT), 'hit');
    }
  });

  test('a module whose content changed, with the same size and mtime, is compiled afresh', async () => {
    coldBuild();
    const file = join(framework, 'node_modules', TS_MORPH);
    const { mtime } = await stat(file);
    const source = await readFile(file, 'utf8');
    // The same length, whichever quotes the directive has.
    const directive = ["'use strict';", '"use strict";'].find((text) => source.startsWith(text));
    assert.ok(directive);
    await writeFile(file, `${directive === "'use strict';" ? '"use strict";' : "'use strict';"}${source.slice(directive.length)}`);
    await utimes(file, mtime, mtime);
    const run = build();
    assert.equal(eventOf(run, TS_MORPH), 'stale', run.stderr);
    assert.equal(eventOf(run, TYPESCRIPT), 'hit');
    assert.equal(eventOf(build(), TS_MORPH), 'hit');
  });

  test('data V8 rejects (other V8 flags) is replaced for those flags', () => {
    coldBuild();
    const flagged: RunOptions = { nodeOptions: ['--max-lazy'] };
    const rejected = build(flagged);
    assert.equal(eventOf(rejected, TYPESCRIPT), 'rejected');
    cacheFileOf(rejected, 'typescript.js'); // written again
    assert.deepEqual(everyEvent(build(flagged)), new Set(['hit']));
  });

  test('where the cache folder cannot be made, the CLI runs without it', async () => {
    await writeFile(compileCache(), 'a file where the cache folder would go');
    for (let i = 0; i < 2; i++) {
      const run = build();
      assert.deepEqual(everyEvent(run), new Set(['miss']));
      assert.match(run.stderr, /svc compile cache: cannot write .*: (ENOTDIR|EEXIST)$/m);
    }
  });

  test('a read-only cache folder is read, never written', { skip: process.getuid ? false : 'no POSIX permissions' }, async () => {
    const typescript = cacheFileOf(coldBuild(), 'typescript.js');
    await rm(typescript);
    // Root may write anywhere: then the build runs as nobody, who may write the project alone.
    const user = process.getuid!() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const readOnly = await makeProject({});
    await chmod(readOnly, 0o777);
    await chmod(framework, 0o755); // made private by mkdtemp
    await chmod(compileCache(), 0o555);
    try {
      const run = build({ cwd: readOnly, user });
      assert.equal(run.events.size, 3);
      for (const [path, event] of run.events) assert.equal(event, path.endsWith(TYPESCRIPT) ? 'miss' : 'hit', path);
      assert.match(run.stderr, /cannot write .*: EACCES/);
      await assert.rejects(stat(typescript));
    } finally {
      await chmod(compileCache(), 0o755);
      await removeProject(readOnly);
    }
  });

  test('builds starting together all succeed, and leave a cache the next build uses whole', async () => {
    // One project each: what they share is the framework, and so the cache.
    const projects = await Promise.all(Array.from({ length: 3 }, () => makeProject({})));
    try {
      const runs = projects.map((cwd) => {
        const child = spawn(process.execPath, [join(framework, 'bin', 'svc.js'), 'build'], { cwd, env: { ...process.env, SVC_DEBUG_COMPILE_CACHE: '1' } });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        return new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${stderr}`)))));
      });
      await Promise.all(runs);
    } finally {
      for (const folder of projects) await removeProject(folder);
    }
    assert.deepEqual(everyEvent(build()), new Set(['hit']));
    assert.deepEqual((await readdir(compileCache())).filter((name) => name.endsWith('.tmp')), []);
  });

  test('svc tread writes the cache when a signal stops it', async () => {
    const tread = spawn(process.execPath, [join(framework, 'bin', 'svc.js'), 'tread', '--port', '0'], { cwd: project, env: { ...process.env, SVC_DEBUG_COMPILE_CACHE: '1' } });
    let output = '';
    for (const stream of [tread.stdout, tread.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise((resolve) => tread.once('exit', resolve));
    try {
      await eventually(async () => output.includes('svc tread: serving'), 60_000);
    } finally {
      tread.kill('SIGTERM');
      await exited;
    }
    cacheFileOf(parse(output), 'typescript.js');
    assert.deepEqual(everyEvent(build()), new Set(['hit']));
  });

  test('svc serve does not compile through the cache', async () => {
    const served = await makeProject({
      'routes/web.ts': [
        "import type { Router } from 'svc';",
        "import { ts } from 'ts-morph';",
        '',
        "export default (router: Router) => { router.get('/version', () => ts.version); };",
        '',
      ].join('\n'),
    });
    try {
      assert.equal(svcFrom(framework, ['build'], { cwd: served }).status, 0);
      const server = await svcServer(served, ['serve', '--port', '0'], { SVC_DEBUG_COMPILE_CACHE: '1' });
      try {
        // ts-morph is what the cache covers: the build's bundle loads it when it starts.
        assert.match(await (await fetch(`${server.url}/version`)).text(), /^\d+\.\d+\.\d+$/);
      } finally {
        await server.stop();
      }
      assert.doesNotMatch(server.output(), /svc compile cache/);
    } finally {
      await removeProject(served);
    }
  });
});
