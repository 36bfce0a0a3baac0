// bin/svc.js runs the CLI from a bundle cached in node_modules/.cache/svc/ (bin/cli-bundle.js).
// Each test works on a copy of the framework (test/support/framework-copy.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile, rename, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { ageTree, cacheFolderOf, copyFramework, PAST, svcFrom } from '../support/framework-copy.ts';
import { makeProject, removeProject } from '../support/project.ts';

interface Stamp {
  root: string;
  entry: string;
  inputs: Record<string, [number, number]>;
  outputs: Record<string, number>;
}

const BUILD_COMMAND = 'compiler/cli/commands/build.ts';

let framework: string;

beforeEach(async () => {
  framework = await copyFramework();
});

afterEach(() => removeProject(framework));

const cache = (): string => cacheFolderOf(framework);
const readStamp = async (): Promise<Stamp> => JSON.parse(await readFile(join(cache(), 'stamp.json'), 'utf8')) as Stamp;
const entryFile = async (): Promise<string> => join(cache(), (await readStamp()).entry);

/** `svc --help` run from the copy: its output, once it is known to have succeeded. */
function help(): string {
  const result = svcFrom(framework, ['--help']);
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

const DESCRIPTION = /Compile routes\/, weave\/ and svc\.json into \.svc\//;

/** Rewrites the build command's description; `mtime` in seconds. */
async function editBuildCommand(from: string, to: string, mtime: number): Promise<void> {
  const file = join(framework, BUILD_COMMAND);
  const text = await readFile(file, 'utf8');
  assert.ok(text.includes(from));
  await writeFile(file, text.replace(from, to));
  await utimes(file, mtime, mtime);
}

test('the first run writes the bundle and its stamp; later runs reuse them', async () => {
  assert.match(help(), DESCRIPTION);
  const stamp = await readStamp();
  assert.equal(stamp.root, framework + sep);
  assert.ok(stamp.inputs[BUILD_COMMAND], 'the stamp lists the modules the bundle was made from');
  const built = (await stat(await entryFile())).mtimeMs;
  help();
  assert.deepEqual(await readStamp(), stamp);
  assert.equal((await stat(await entryFile())).mtimeMs, built, 'the bundle was not written again');
});

test('a source whose mtime changed is bundled again', async () => {
  help();
  await editBuildCommand('Compile routes/', 'Kompile routes/', PAST + 60); // same size
  assert.match(help(), /Kompile routes\//);
  assert.deepEqual((await readStamp()).inputs[BUILD_COMMAND], [(PAST + 60) * 1000, (await stat(join(framework, BUILD_COMMAND))).size]);
});

test('a source whose size changed is bundled again, even with the same mtime', async () => {
  help();
  await editBuildCommand('Compile routes/', 'Compile all of routes/', PAST);
  assert.match(help(), /Compile all of routes\//);
});

test('a truncated chunk is noticed and the bundle rebuilt', async () => {
  help();
  const entry = await entryFile();
  const { size } = await stat(entry);
  await truncate(entry, Math.floor(size / 2));
  assert.match(help(), DESCRIPTION);
  assert.equal((await stat(await entryFile())).size, size);
});

test('a damaged chunk of the right size falls back to the sources, and the next run rebuilds it', async () => {
  help();
  const entry = await entryFile();
  const damaged = 'x'.repeat((await stat(entry)).size);
  await writeFile(entry, damaged);
  assert.match(help(), DESCRIPTION);
  await assert.rejects(readStamp(), 'the stamp of a bundle that failed to load is dropped');
  help();
  assert.notEqual(await readFile(await entryFile(), 'utf8'), damaged);
});

test('a stamp that is not JSON is rebuilt', async () => {
  help();
  await writeFile(join(cache(), 'stamp.json'), '{"root": ');
  assert.match(help(), DESCRIPTION);
  assert.equal((await readStamp()).root, framework + sep);
});

test('a moved framework folder is bundled again for its new place', async () => {
  help();
  const moved = `${framework}-moved`;
  await rename(framework, moved);
  framework = moved;
  assert.match(help(), DESCRIPTION);
  assert.equal((await readStamp()).root, moved + sep);
});

test('with nowhere to write the cache, the CLI runs from the sources', async () => {
  await writeFile(join(framework, 'node_modules'), 'a file where the cache folder would go');
  assert.match(help(), DESCRIPTION);
});

test('processes starting together all run, and leave one valid cache', async () => {
  const runs = Array.from({ length: 3 }, () => {
    const child = spawn(process.execPath, [join(framework, 'bin', 'svc.js'), '--help'], { cwd: framework });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    return new Promise<string>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}`)))));
  });
  for (const stdout of await Promise.all(runs)) assert.match(stdout, DESCRIPTION);
  const stamp = await readStamp();
  for (const [name, size] of Object.entries(stamp.outputs)) assert.equal((await stat(join(cache(), name))).size, size, name);
  assert.deepEqual((await readdir(cache())).filter((name) => name.endsWith('.tmp')), []);
});

test('svc build run from the copy reads its templates and records it as the framework root', async () => {
  const project = await makeProject({ 'routes/web.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'hi'); };\n" });
  try {
    const result = svcFrom(framework, ['build'], { cwd: project });
    assert.equal(result.status, 0, result.stderr);
    // Relative to the project, so that the built tree can move (test/compiler/deterministic.test.ts).
    assert.ok((await readFile(join(project, '.svc', 'app.mjs'), 'utf8')).includes(JSON.stringify(relative(project, framework).split(sep).join('/'))));
  } finally {
    await removeProject(project);
  }
});

test('files of bundles two rebuilds old are deleted', async () => {
  const outputs = async (): Promise<string[]> => Object.keys((await readStamp()).outputs);
  help();
  const first = await outputs();
  await ageTree(cache());
  await editBuildCommand('Compile routes/', 'Kompile routes/', PAST + 60);
  help();
  const second = await outputs();
  await ageTree(cache());
  await editBuildCommand('Kompile routes/', 'Compyle routes/', PAST + 120);
  assert.match(help(), /Compyle routes\//);
  const kept = new Set([...second, ...(await outputs()), 'stamp.json']);
  assert.ok(first.some((name) => !kept.has(name)), 'the first bundle has files the later ones do not');
  assert.deepEqual((await readdir(cache())).sort(), [...kept].sort());
});
