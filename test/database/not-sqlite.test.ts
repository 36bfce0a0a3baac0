// A file at database.path that is no SQLite database is said when the server starts, in
// svc.log and on stderr, rather than only by the 500 of each request that uses it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startProject } from '../support/server.ts';

const routes = `import { db, type Router } from 'svc';
export default (router: Router) => { router.get('/count', async () => (await db().selectFrom('notes').selectAll().execute()).length); };
`;

test('the server starts, says the database is none, and leaves the file as it is', async (t) => {
  const stderr: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
  const app = await startProject({ 'routes/api.ts': routes, 'shoebox/database.sqlite': 'these are my notes\n' });
  try {
    const warning = /shoebox\/database\.sqlite is not an SQLite database: every query will fail \(health reports it down\) until the file is replaced or database\.path names another\./;
    assert.match(stderr.join(''), warning);
    assert.equal((await fetch(`${app.url}/count`)).status, 500);
    assert.equal((await app.logLines()).filter((line) => line.includes('[database]')).length, 1);
    assert.match((await app.logLines()).find((line) => line.includes('[database]'))!, warning);
    assert.equal(await readFile(join(app.root, 'shoebox', 'database.sqlite'), 'utf8'), 'these are my notes\n');
  } finally {
    await app.close();
  }
});

test('an empty file is an SQLite database without tables: nothing to say', async (t) => {
  const stderr: string[] = [];
  t.mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
  const app = await startProject({ 'routes/api.ts': routes, 'shoebox/database.sqlite': '' });
  try {
    assert.doesNotMatch(stderr.join(''), /SQLite/);
    assert.deepEqual((await app.logLines()).filter((line) => line.includes('[database]')), []);
  } finally {
    await app.close();
  }
});
