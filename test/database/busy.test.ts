// A database locked by another process (`cobble run`, another worker) is waited for off
// the event loop: the server keeps answering everything else meanwhile.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, test } from 'node:test';
import { svc, svcServer } from '../support/cli.ts';
import { connectSqlite } from '../../runtime/database/sqlite-library.ts';
import { makeProject, removeProject } from '../support/project.ts';

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

const ROUTES = `import { db, type Router } from 'svc';
export default (router: Router) => {
  router.post('/notes', async () => {
    await db<any>().insertInto('notes').values({ title: 'written' }).execute();
    return 'written';
  });
  router.get('/plain', () => 'plain');
};
`;

/** Milliseconds `request` takes to settle. */
async function timed(request: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await request;
  return performance.now() - started;
}

test('a write waiting for the lock does not stall other requests, and succeeds once the lock is free', async () => {
  const root = await makeProject({ 'routes/api.ts': ROUTES, 'svc.json': '{}' });
  roots.push(root);
  assert.equal(svc(root, ['build']).status, 0);
  const database = connectSqlite(join(root, 'shoebox', 'database.sqlite'));
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('create table notes (title text)');
  const server = await svcServer(root, ['serve', '--port', '0']);
  try {
    assert.equal((await fetch(`${server.url}/notes`, { method: 'POST' })).status, 200); // the connection is open

    database.exec('BEGIN IMMEDIATE'); // as a migration in progress holds it
    const write = fetch(`${server.url}/notes`, { method: 'POST' });
    await delay(300);
    const plain = fetch(`${server.url}/plain`);
    assert.ok((await timed(plain)) < 1000, 'GET /plain waited for the locked write');
    await delay(1500);
    database.exec('COMMIT');
    const written = await write;
    assert.equal(written.status, 200, await written.text());
    assert.deepEqual(database.prepare('select count(*) as n from notes').all([]), [{ n: 2 }]);

    database.exec('BEGIN IMMEDIATE'); // held past the wait: the request fails, it does not hang
    const refused = await fetch(`${server.url}/notes`, { method: 'POST' });
    assert.equal(refused.status, 500);
    database.exec('ROLLBACK');
  } finally {
    database.close();
    await server.stop();
  }
});
