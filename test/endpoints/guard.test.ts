// svc.json `endpoints.guarded`: the built-in endpoints behind `Authorization: Bearer`
// with the token from SVC_GUARD_TOKEN, and a server that will not start without it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { removeProject } from '../support/project.ts';
import { buildProject, get, serve, svcBin, type Served } from './support.ts';

const TOKEN = 'correct horse battery staple';
const endpoints = ['/svc/docs', '/svc/docs/swagger-ui.css', '/svc/docs/openapi.json', '/shoebox/outsole/docs/swagger-ui.css', '/svc/health', '/svc/dashboard', '/svc/metrics'];

describe('guarded: true', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject({ endpoints: { guarded: true } });
    process.env.SVC_GUARD_TOKEN = TOKEN;
    served = await serve(root);
  });
  after(async () => {
    delete process.env.SVC_GUARD_TOKEN;
    await served.stop();
    await removeProject(root);
  });

  it('answers 401 with WWW-Authenticate: Bearer without the right token', async () => {
    const wrong = [undefined, 'Bearer nope', `Bearer ${TOKEN}x`, `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`, 'Bearer ', TOKEN];
    for (const path of endpoints) {
      for (const authorization of wrong) {
        const response = await get(`${served.url}${path}`, { headers: authorization === undefined ? {} : { authorization } });
        assert.equal(response.status, 401, `${path} with ${authorization}`);
        assert.equal(response.headers.get('www-authenticate'), 'Bearer');
        assert.equal(response.headers.get('content-type'), 'application/problem+json');
        assert.equal((JSON.parse(response.body) as { status: number }).status, 401);
      }
    }
  });

  it('serves every endpoint with the token', async () => {
    for (const path of endpoints) {
      for (const scheme of ['Bearer', 'bearer']) {
        const response = await get(`${served.url}${path}`, { headers: { authorization: `${scheme} ${TOKEN}` } });
        assert.equal(response.status, 200, `${path} with ${scheme}`);
      }
    }
  });

  it('leaves the application’s own routes alone', async () => {
    assert.equal((await get(`${served.url}/hello/ann`)).status, 200);
  });

  for (const command of ['serve', 'tread']) {
    it(`\`svc ${command}\` refuses to start without SVC_GUARD_TOKEN`, () => {
      const env = { ...process.env };
      delete env.SVC_GUARD_TOKEN;
      const run = spawnSync(process.execPath, [svcBin, command, '--port', '0'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
      assert.notEqual(run.status, 0, `svc ${command} exited with ${run.status}:\n${run.stdout}${run.stderr}`);
      assert.notEqual(run.status, null, `svc ${command} started and had to be killed`);
      assert.match(run.stderr, /"endpoints\.guarded": true but the environment variable SVC_GUARD_TOKEN is not set/);
      assert.doesNotMatch(run.stdout, /serving/);
    });
  }

  it('`svc serve --workers 2` refuses once, in the primary, before any worker starts', () => {
    const env = { ...process.env };
    delete env.SVC_GUARD_TOKEN;
    const run = spawnSync(process.execPath, [svcBin, 'serve', '--port', '0', '--workers', '2'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 1, `svc serve exited with ${run.status}:\n${run.stdout}${run.stderr}`);
    assert.equal(run.stderr.match(/SVC_GUARD_TOKEN is not set/g)?.length, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /worker/);
  });

  it('`svc serve` says so when SVC_GUARD_TOKEN is set but empty', () => {
    const run = spawnSync(process.execPath, [svcBin, 'serve', '--port', '0'], { cwd: root, env: { ...process.env, SVC_GUARD_TOKEN: '' }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 1, `svc serve exited with ${run.status}:\n${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /the environment variable SVC_GUARD_TOKEN is empty/);
  });

  // The presented token is read without surrounding spaces, and a header carries visible ASCII.
  for (const token of [' secret', 'secret\n', 'sécret']) {
    it(`\`svc serve\` refuses a token no request could present (${JSON.stringify(token)})`, () => {
      const run = spawnSync(process.execPath, [svcBin, 'serve', '--port', '0'], { cwd: root, env: { ...process.env, SVC_GUARD_TOKEN: token }, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 1, `svc serve exited with ${run.status}:\n${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /SVC_GUARD_TOKEN starts or ends with whitespace, or holds a character other than visible ASCII, so no request could present it/);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
    });
  }
});

describe('guarded: false (the default)', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject();
    served = await serve(root);
  });
  after(async () => {
    await served.stop();
    await removeProject(root);
  });

  it('serves every endpoint without a token', async () => {
    for (const path of endpoints) assert.equal((await get(`${served.url}${path}`)).status, 200, path);
  });
});
