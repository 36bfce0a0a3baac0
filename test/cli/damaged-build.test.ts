// The bundle reads its manifest and IP tables from beside itself when it starts: a
// build missing one, or with one damaged, is refused in one clear line, not a stack.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { HELLO_APP, makeProject, removeProject, repoRoot } from '../support/project.ts';
import { svc } from '../support/cli.ts';

let root: string;

before(async () => {
  root = await makeProject(HELLO_APP);
  const built = svc(root, ['build']);
  assert.equal(built.status, 0, built.stderr);
  for (const name of ['manifest.json', 'ip-tables.json', 'app.mjs']) await copyFile(join(root, '.svc', name), join(root, `${name}.good`));
});

after(() => removeProject(root));

const damages: Array<[string, string, (path: string) => Promise<void>, RegExp]> = [
  ['a missing manifest', 'manifest.json', (path) => rm(path), /manifest\.json cannot be read \(ENOENT\)/],
  ['a truncated manifest', 'manifest.json', (path) => writeFile(path, '{"framework": "0.1'), /manifest\.json is not valid JSON/],
  ['damaged IP tables', 'ip-tables.json', (path) => writeFile(path, 'not json'), /ip-tables\.json is not valid JSON/],
  // Valid JSON of the wrong shape: `null` IP tables must not mean "no IP rules".
  ['IP tables of null', 'ip-tables.json', (path) => writeFile(path, 'null'), /ip-tables\.json does not hold what svc build writes/],
  ['IP tables without their routes', 'ip-tables.json', (path) => writeFile(path, '{"global":{"whitelist":{"v4":[],"v6":[]},"blacklist":{"v4":[],"v6":[]}},"trustProxy":{"v4":[],"v6":[]}}'), /ip-tables\.json does not hold/],
  ['an IP entry that is no address', 'ip-tables.json', async (path) => writeFile(path, (await readFile(join(root, 'ip-tables.json.good'), 'utf8')).replace('"v4": []', '"v4": ["x"]')), /ip-tables\.json does not hold/],
  ['a manifest of an empty object', 'manifest.json', (path) => writeFile(path, '{}'), /manifest\.json does not hold what svc build writes/],
  // Ids index the route table and the metrics: 1e15 failed the start with a stack, -1 answered with 500.
  ...[1e15, -1, '"x"'].map((id): [string, string, (path: string) => Promise<void>, RegExp] => [
    `a route id of ${id}`,
    'manifest.json',
    async (path) => writeFile(path, (await readFile(join(root, 'manifest.json.good'), 'utf8')).replace('"id": 0,', `"id": ${id},`)),
    /manifest\.json does not hold what svc build writes/,
  ]),
  // A module that loads but is no build: svc must not call what is not there.
  ['an emptied bundle', 'app.mjs', (path) => writeFile(path, ''), /app\.mjs does not hold what svc build writes/],
  ['a bundle that is some other module', 'app.mjs', (path) => writeFile(path, 'export const x = 1;\n'), /app\.mjs does not hold what svc build writes/],
  // Cut short mid-statement (a full disk, a copy interrupted): it does not even parse.
  ['a bundle cut short', 'app.mjs', async (path) => writeFile(path, (await readFile(path, 'utf8')).slice(0, -1000) + '\nconst cut = ('), /app\.mjs cannot be loaded \(SyntaxError: .*\): it was damaged or not written whole; run `svc build`/],
];

for (const [what, name, damage, message] of damages) {
  for (const workers of ['1', '2']) {
    test(`svc serve --workers ${workers} refuses a build with ${what}`, async (t) => {
      const path = join(root, '.svc', name);
      t.after(() => copyFile(join(root, `${name}.good`), path));
      await damage(path);
      const result = svc(root, ['serve', '--port', '0', '--workers', workers]);
      assert.equal(result.status, 1, result.stdout + result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /run `svc build`/);
      assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    });
  }
}

test('svc serve refuses, in one line, an error page broken after the build', async (t) => {
  const page = join(root, 'weave', 'Views', 'errors', '404.hbs');
  t.after(() => rm(join(root, 'weave'), { recursive: true, force: true }));
  await mkdir(dirname(page), { recursive: true });
  await writeFile(page, '<p>{{#if detail}}</p>\n');
  const result = svc(root, ['serve', '--port', '0']);
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /404\.hbs is not a valid Handlebars template: Expecting .*, got 'EOF'\. Fix it and run `svc build`/);
  assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
});

test('svc serve refuses, in one line, an error page that became a folder after the build', async (t) => {
  const page = join(root, 'weave', 'Views', 'errors', '500.hbs');
  t.after(() => rm(join(root, 'weave'), { recursive: true, force: true }));
  await mkdir(page, { recursive: true });
  const result = svc(root, ['serve', '--port', '0']);
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /500\.hbs cannot be read \(EISDIR\)\. Make it a readable file, or remove it\./);
  assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
});

test('svc serve and svc build refuse, in one line, an error page that is a FIFO', async (t) => {
  const page = join(root, 'shoebox', 'views', '404.hbs');
  t.after(() => rm(join(root, 'shoebox', 'views'), { recursive: true, force: true }));
  await mkdir(dirname(page), { recursive: true });
  execFileSync('mkfifo', [page]);
  for (const [args, message] of [
    [['serve', '--port', '0'], /404\.hbs cannot be read \(not a regular file .*\)\. Make it a readable file, or remove it\./],
    [['build'], /^shoebox\/views\/404\.hbs:1:1 - error SVC010: the error page cannot be read \(not a regular file .*\)/m],
  ] as const) {
    // Each read the page by waiting for a writer, for ever: the server did not start, nor stop on SIGTERM.
    const result = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' });
    assert.equal(result.status, 1, `svc ${args[0]}: ${result.signal ?? ''}${result.stdout}${result.stderr}`);
    assert.match(result.stdout + result.stderr, message);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
  }
});

const writers: Array<[string, string[], string, RegExp]> = [
  ['svc build', ['build'], '.svc', /^svc: cannot mkdir \.svc \(EEXIST\); svc build writes/],
  ['svc route docs', ['route', 'docs'], 'shoebox/outsole', /^svc: cannot mkdir shoebox\/outsole \(EEXIST\); svc route docs writes/],
];

for (const [command, args, blocked, message] of writers) {
  test(`${command} says in one line, exit 1, when it cannot write ${blocked}/`, async () => {
    const other = await makeProject({ ...HELLO_APP, [blocked]: 'a file where the output goes' });
    try {
      const result = svc(other, args);
      assert.equal(result.status, 1, result.stdout + result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    } finally {
      await removeProject(other);
    }
  });
}

test('svc serve says in one line, exit 1, which npm package the build needs when it is not installed', async () => {
  // Copied away from the node_modules it was built beside, as a deploy without `npm install` is.
  const away = await mkdtemp(join(tmpdir(), 'svc-moved-'));
  try {
    await cp(root, away, { recursive: true });
    const result = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), 'serve', '--port', '0'], { cwd: away, encoding: 'utf8', timeout: 20_000 });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /^svc: \.svc\/app\.mjs needs the npm package "[^"]+", which is not installed where it looks \(the project's node_modules\): run `npm install`/);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
  } finally {
    await rm(away, { recursive: true, force: true });
  }
});

test('svc serve says in one line, exit 1, when the open-file limit is too low to load it', () => {
  // Node's loader opens a package's modules all at once: it failed with its own stack.
  const result = spawnSync('bash', ['-c', `ulimit -n 64 && exec "${process.execPath}" "${join(repoRoot, 'bin', 'svc.js')}" serve --port 0`], { cwd: root, encoding: 'utf8', timeout: 20_000 });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /^svc: too many open files \(EMFILE\) while loading .*: the limit of open files \(`ulimit -n`\) is too low .*; raise it to 1024 or more\.\n$/);
});
