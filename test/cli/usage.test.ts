import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';
import { svc } from '../support/cli.ts';

test('--version prints MAJOR.MINOR.PATCH', () => {
  const result = svc(repoRoot, ['--version']);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /\b\d+\.\d+\.\d+\b/);
});

test('--help lists the commands', () => {
  const result = svc(repoRoot, ['--help']);
  assert.equal(result.status, 0);
  for (const command of ['build', 'serve', 'tread', 'route', 'cobble', 'cache:clear']) assert.match(result.stdout, new RegExp(`\\b${command}\\b`));
});

test('svc help is --help; svc help <command> is that command\'s; an unknown one is a usage error', () => {
  assert.deepEqual(svc(repoRoot, ['help']).stdout, svc(repoRoot, ['--help']).stdout);
  const build = svc(repoRoot, ['help', 'build']);
  assert.equal(build.status, 0);
  assert.equal(build.stdout, svc(repoRoot, ['build', '--help']).stdout);
  assert.match(build.stdout, /\$ svc build/);
  const unknown = svc(repoRoot, ['help', 'frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown command: frobnicate/);
});

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

for (const args of [['frobnicate'], [], ['build', '--no-such-flag'], ['serve', '--port', 'seventy'], ['serve', '--port', '70000'], ['serve', '--host', 'not a host!'], ['tread', '--host', '999.1.1.1']]) {
  test(`usage error exits 2 with help: svc ${args.join(' ')}`, () => {
    const result = svc(repoRoot, args);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /svc: /);
    assert.match(result.stderr, /Usage:/);
    assert.equal(result.stdout, '');
  });
}

test("run inside a project's routes/ or weave/ folder, svc works on that project", async () => {
  const root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'home'); };\n`,
    'weave/Controllers/.keep': '',
  });
  roots.push(root);
  for (const folder of ['routes', join('weave', 'Controllers')]) {
    const result = svc(join(root, folder), ['route', 'list', '--json']);
    assert.equal(result.status, 0, result.stderr);
    assert.ok((JSON.parse(result.stdout) as Array<{ path: string }>).some((route) => route.path === '/'));
  }
  assert.equal(svc(join(root, 'routes'), ['build']).status, 0);
  assert.ok(existsSync(join(root, '.svc', 'app.mjs')));
  assert.ok(!existsSync(join(root, 'routes', '.svc')) && !existsSync(join(root, 'routes', 'shoebox')));
});

// cac reads a blank value as the number 0 and `0x10` as 16: `--port "$PORT"` with PORT unset
// must not mean "any free port", nor `--port 0x10` port 16.
test('a blank option value, a number not in decimal digits or a flag given a value is a usage error, also for the build\'s own svc serve', async () => {
  const root = await makeProject({
    'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'home'); };\n`,
  });
  roots.push(root);
  assert.equal(svc(root, ['build']).status, 0);
  const blank = [['serve', '--port', ''], ['serve', '--port', ' '], ['serve', '--port=', ''], ['serve', '--workers', ''], ['tread', '--port', ''], ['route', 'list', '--method', '']];
  const misread = [['serve', '--port', '0x10'], ['serve', '--port=1e3'], ['serve', '--port', ' 80'], ['serve', '--workers', '0b10'], ['tread', '--port', '0o17']];
  const flagged = [['build', '--json=1'], ['route', 'list', '--json=yes']];
  for (const [args, message] of [
    ...blank.map((args) => [args, /^svc: --\w+ needs a value, got "\s*"\n/] as const),
    ...misread.map((args) => [args, /^svc: --\w+ got ".+": write a number in decimal digits only\n/] as const),
    ...flagged.map((args) => [args, /^svc: --json takes no value, got "\w+": write --json alone\n/] as const),
  ]) {
    const result = spawnSync(process.execPath, [join(repoRoot, 'bin', 'svc.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.status, 2, `svc ${args.join(' ')}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message);
    assert.match(result.stderr, /Usage:/);
  }
});

// Run in a throw-away project: ignoring the option, `route docs` would write shoebox/outsole/
// and `cobble create` a migration.
test('an option only another action takes, or an argument after --, is a usage error with that command\'s help', async () => {
  const root = await makeProject({ 'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/', () => 'home'); };\n` });
  roots.push(root);
  const cases: Array<[string[], RegExp]> = [
    [['route', 'docs', '--json'], /^svc: route docs does not take --json \(an option of svc route list\)\n/],
    [['route', 'docs', '--method', 'GET'], /^svc: route docs does not take --method \(an option of svc route list\)\n/],
    [['cobble', 'rollback', '--json'], /^svc: cobble rollback does not take --json \(an option of svc cobble status\)\n/],
    [['cobble', 'create', 'X', '--json'], /^svc: cobble create does not take --json \(an option of svc cobble status\)\n/],
    [['build', '--', 'x'], /^svc: build takes no arguments after --, got "x"\n/],
  ];
  for (const [args, message] of cases) {
    const result = svc(root, args);
    assert.equal(result.status, 2, `svc ${args.join(' ')}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, message);
    assert.match(result.stderr, new RegExp(`Usage:\\n  \\$ svc ${args[0]}\\b`));
    assert.equal(result.stdout, '');
  }
  assert.ok(!existsSync(join(root, 'shoebox')) && !existsSync(join(root, '.svc')));
});
