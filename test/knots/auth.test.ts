// The demo application's knots, built from the repository's own routes/ and weave/:
// /admin behind AuthMiddleware (SVC_ADMIN_TOKEN, constant-time) and RateLimitKnots(10, 60),
// and /api/slow-report behind ShoeCacheKnots(30).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { get } from '../support/knots.ts';
import { repoRoot } from '../support/project.ts';
import { startProject, type Running } from '../support/server.ts';

/** The demo application's sources, as a project tree. */
async function demoFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const folder of ['routes', 'weave']) {
    for (const entry of await readdir(join(repoRoot, folder), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files[relative(repoRoot, join(entry.parentPath, entry.name)).split('\\').join('/')] = await readFile(join(entry.parentPath, entry.name), 'utf8');
    }
  }
  if (existsSync(join(repoRoot, 'svc.json'))) files['svc.json'] = await readFile(join(repoRoot, 'svc.json'), 'utf8');
  return files;
}

/** Starts a project with SVC_ADMIN_TOKEN as given (AuthMiddleware reads it at start-up). */
async function startWithToken(files: Record<string, string>, token: string | undefined): Promise<Running> {
  const saved = process.env.SVC_ADMIN_TOKEN;
  if (token === undefined) delete process.env.SVC_ADMIN_TOKEN;
  else process.env.SVC_ADMIN_TOKEN = token;
  try {
    return await startProject(files);
  } finally {
    if (saved === undefined) delete process.env.SVC_ADMIN_TOKEN;
    else process.env.SVC_ADMIN_TOKEN = saved;
  }
}

describe('demo: /admin behind AuthMiddleware and RateLimitKnots(10, 60)', () => {
  let server: Running;
  before(async () => {
    server = await startWithToken(await demoFiles(), 'correct horse battery staple');
  });
  after(() => server.close());

  const refused = (res: { status: number; headers: Record<string, unknown>; body: string }): void => {
    assert.equal(res.status, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer');
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(JSON.parse(res.body).status, 401);
  };

  it('answers 401 with WWW-Authenticate: Bearer without a token, with a wrong one, or another scheme', async () => {
    refused(await get(server, '/admin/dashboard'));
    refused(await get(server, '/admin/dashboard', { authorization: 'Bearer wrong' }));
    refused(await get(server, '/admin/dashboard', { authorization: 'Bearer correct horse battery stapl' }));
    refused(await get(server, '/admin/dashboard', { authorization: 'Basic Y29ycmVjdA==' }));
  });

  it('lets the right token through, rate limited to 10 a minute', async () => {
    const auth = { authorization: 'Bearer correct horse battery staple' };
    const first = await get(server, '/admin/dashboard', auth);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '10');
    assert.equal(first.headers['x-ratelimit-remaining'], '9');
    for (let i = 0; i < 9; i++) assert.equal((await get(server, '/admin/dashboard', auth)).status, 200);
    const limited = await get(server, '/admin/dashboard', auth);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    refused(await get(server, '/admin/dashboard')); // authentication comes first (outer)
  });

  it('caches /api/slow-report', async () => {
    const miss = await get(server, '/api/slow-report');
    assert.equal(miss.headers['x-cache'], 'MISS');
    const hit = await get(server, '/api/slow-report');
    assert.equal(hit.headers['x-cache'], 'HIT');
    assert.equal(hit.body, miss.body);
  });
});

describe('AuthMiddleware without SVC_ADMIN_TOKEN', () => {
  let server: Running;
  before(async () => {
    const middleware = await readFile(join(repoRoot, 'weave/Middleware/AuthMiddleware.ts'), 'utf8');
    server = await startWithToken(
      {
        'weave/Middleware/AuthMiddleware.ts': middleware,
        'routes/api.ts': `import type { Router } from 'svc';\nexport default (router: Router) => {\n  router.group({ middleware: ['AuthMiddleware'] }, (r) => r.get('/secret', () => 'secret'));\n};\n`,
      },
      undefined,
    );
  });
  after(() => server.close());

  it('denies every request, whatever it sends, and says why in the log', async () => {
    for (const authorization of [undefined, 'Bearer ', 'Bearer undefined', 'Bearer x']) {
      const res = await get(server, '/secret', authorization === undefined ? {} : { authorization });
      assert.equal(res.status, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    assert.match((await server.logLines()).join('\n'), /\[auth\] SVC_ADMIN_TOKEN is not set/);
  });
});
