// The health endpoint through a real build: ok, degraded (a service or the cache folder)
// and down (the database), with the checks it reports.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoRoot, removeProject } from '../support/project.ts';
import { buildProject, get, serve } from './support.ts';

interface Check {
  status: string;
  latencyMs: number;
  error?: string;
  note?: string;
}
interface Health {
  status: string;
  version: string;
  uptime: number;
  time: string;
  checks: Record<string, Check>;
}

async function health(url: string): Promise<{ status: number; cacheControl: string | null; body: Health }> {
  const response = await get(`${url}/svc/health`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: JSON.parse(response.body) as Health };
}

function listening(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.end());
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** A port nothing listens on: one that was just freed. */
async function closedPort(): Promise<number> {
  const server = await listening();
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('health endpoint', () => {
  const roots: string[] = [];
  let service: Server;
  before(async () => {
    service = await listening();
  });
  after(async () => {
    service.close();
    await Promise.all(roots.map(removeProject));
  });

  it('is ok with the database, the cache folder and every service reachable', async () => {
    const port = (service.address() as AddressInfo).port;
    const root = await buildProject({ health: { services: [{ name: 'search', host: '127.0.0.1', port }] } });
    roots.push(root);
    const served = await serve(root);
    const { status, cacheControl, body } = await health(served.url);
    await served.stop();
    assert.equal(status, 200);
    assert.equal(cacheControl, 'no-store');
    assert.equal(body.status, 'ok');
    assert.equal(body.version, (JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version);
    assert.match(body.version, /^\d+\.\d+\.\d+$/);
    assert.ok(typeof body.uptime === 'number' && body.uptime > 0);
    assert.ok(Math.abs(Date.parse(body.time) - Date.now()) < 60_000);
    assert.equal(new Date(body.time).toISOString(), body.time);
    assert.deepEqual(Object.keys(body.checks).sort(), ['cache', 'database', 'search']);
    for (const [name, check] of Object.entries(body.checks)) {
      assert.equal(check.status, 'ok', `${name}: ${check.error}`);
      assert.ok(typeof check.latencyMs === 'number' && check.latencyMs >= 0);
      assert.equal(check.error, undefined);
    }
  });

  it('reports a database not created yet as ok, and does not create it', async () => {
    const root = await buildProject({ database: { driver: 'sqlite', path: 'shoebox/later.sqlite' } });
    roots.push(root);
    const served = await serve(root);
    const { body } = await health(served.url);
    await served.stop();
    assert.equal(body.checks.database?.status, 'ok');
    assert.match(body.checks.database?.note ?? '', /not created yet/);
    assert.equal(existsSync(join(root, 'shoebox', 'later.sqlite')), false, 'cobble run would take an empty file for the migrated database');
  });

  it('reports down (503) a database that could not be created: a file where its folder belongs', async () => {
    const root = await buildProject({ database: { driver: 'sqlite', path: 'shoebox/data/app.sqlite' } });
    roots.push(root);
    await mkdir(join(root, 'shoebox'), { recursive: true });
    await writeFile(join(root, 'shoebox', 'data'), 'a file, not a folder');
    const served = await serve(root);
    const { status, body } = await health(served.url);
    await served.stop();
    assert.equal(status, 503);
    assert.equal(body.checks.database?.status, 'down');
    assert.match(body.checks.database?.error ?? '', /shoebox\/data is a file, where the database's folder belongs/);
  });

  it('reports down a database file deleted while open, and the next query opens the file at its path', async () => {
    const files = {
      'routes/api.ts': `import { db, sql, type Router } from 'svc';
export default (router: Router) => {
  router.get('/write/{n}', async (n: number) => {
    await sql\`create table if not exists notes (n integer)\`.execute(db());
    await sql\`insert into notes values (\${n})\`.execute(db());
    return (await sql<{ count: number }>\`select count(*) as count from notes\`.execute(db())).rows[0];
  });
};
`,
    };
    const root = await buildProject({}, files);
    roots.push(root);
    const served = await serve(root);
    try {
      assert.deepEqual(await (await fetch(`${served.url}/write/1`)).json(), { count: 1 });
      for (const suffix of ['', '-wal', '-shm']) await rm(join(root, 'shoebox', `database.sqlite${suffix}`), { force: true });
      const gone = await health(served.url);
      assert.equal(gone.status, 503);
      assert.match(gone.body.checks.database?.error ?? '', /shoebox\/database\.sqlite was deleted or replaced while open/);
      // Written to the file at the path, which the next query creates: not to the deleted one.
      assert.deepEqual(await (await fetch(`${served.url}/write/2`)).json(), { count: 1 });
      assert.ok(existsSync(join(root, 'shoebox', 'database.sqlite')));
      assert.equal((await health(served.url)).body.checks.database?.status, 'ok');
    } finally {
      await served.stop();
    }
  });

  it('is degraded (200) when a service is unreachable or the cache folder is not writable', async () => {
    const root = await buildProject({ health: { services: [{ name: 'mail', host: '127.0.0.1', port: await closedPort(), timeoutMs: 2000 }] } });
    roots.push(root);
    const served = await serve(root);
    const unreachable = await health(served.url);
    assert.equal(unreachable.status, 200);
    assert.equal(unreachable.body.status, 'degraded');
    assert.equal(unreachable.body.checks.mail?.status, 'down');
    assert.match(unreachable.body.checks.mail?.error ?? '', /ECONNREFUSED/);
    assert.equal(unreachable.body.checks.database?.status, 'ok');

    await rm(join(root, 'shoebox', 'cache'), { recursive: true, force: true });
    await mkdir(join(root, 'shoebox'), { recursive: true });
    await writeFile(join(root, 'shoebox', 'cache'), 'a file where the folder should be');
    const blocked = await health(served.url);
    await served.stop();
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.status, 'degraded');
    assert.equal(blocked.body.checks.cache?.status, 'down');
    assert.ok(blocked.body.checks.cache?.error);
  });

  it('is down (503) when the database does not answer', async () => {
    // The database file's folder is a regular file: the connection cannot open.
    const root = await buildProject({ database: { driver: 'sqlite', path: 'blocker/app.sqlite' } });
    roots.push(root);
    await writeFile(join(root, 'blocker'), 'not a folder');
    const served = await serve(root);
    const { status, body } = await health(served.url);
    await served.stop();
    assert.equal(status, 503);
    assert.equal(body.status, 'down');
    assert.equal(body.checks.database?.status, 'down');
    assert.ok(body.checks.database?.error);
    assert.equal(body.checks.cache?.status, 'ok');
  });

  it('creates the cache folder of a fresh clone instead of reporting it missing', async () => {
    const root = await buildProject();
    roots.push(root);
    await rm(join(root, 'shoebox'), { recursive: true, force: true });
    const served = await serve(root);
    const { body } = await health(served.url);
    await served.stop();
    assert.equal(body.checks.cache?.status, 'ok');
  });
});
