// The demo application (the repository's own routes/, weave/, svc.json and migrations),
// copied into a scratch project and served by the real CLI: what `npm start` shows a
// newcomer must answer bad input with 4xx, never 500.
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svc, svcServer, type RunningSvc } from '../support/cli.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

describe('the demo application', () => {
  let root: string;
  let server: RunningSvc;
  before(async () => {
    root = await makeProject({});
    // Not the tracker and lock `npm start` leaves in the checkout's shoebox/migrations/:
    // with them, `cobble run` refuses (applied migrations, but no database here).
    const machineLocal = new Set(['migrations.json', '.lock']);
    const filter = (source: string) => !machineLocal.has(basename(source)) && !source.endsWith('.tmp');
    for (const path of ['routes', 'weave', 'svc.json', 'shoebox/migrations']) await cp(join(repoRoot, path), join(root, path), { recursive: true, filter });
    for (const args of [['build'], ['cobble', 'run']]) assert.equal(svc(root, args).status, 0, args.join(' '));
    server = await svcServer(root, ['serve', '--port', '0']);
  });
  after(async () => {
    await server?.stop();
    await removeProject(root);
  });

  const post = (path: string, body: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('answers a browser’s 404 with its own page (weave/Views/errors/404.hbs), a client’s with problem+json', async () => {
    const page = await fetch(`${server.url}/no/such/page`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 404);
    assert.match(await page.text(), /<h1>Not in the shoebox<\/h1>\s*<p>No route for GET \/no\/such\/page\.<\/p>/);
    const problem = await fetch(`${server.url}/no/such/page`);
    assert.equal(problem.headers.get('content-type'), 'application/problem+json');
  });

  for (const path of ['/api/users', '/api/notes']) {
    it(`POST ${path} answers 400 to JSON that is not an object of the right fields`, async () => {
      for (const body of ['null', '[]', '"text"', '42', '{}', '{"name": 1}', 'not json']) {
        assert.equal((await post(path, body)).status, 400, body);
      }
    });
  }

  it('lists the users whose name contains ?name=', async () => {
    const found = (await (await fetch(`${server.url}/api/users?name=GRACE`)).json()) as Array<{ name: string }>;
    assert.deepEqual(found.map((u) => u.name), ['Grace Hopper']);
  });

  it('creates what a good body describes', async () => {
    const user = await post('/api/users', '{"name": "Lin", "email": "lin@example.com"}');
    assert.equal(user.status, 201);
    assert.equal(((await user.json()) as { name: string }).name, 'Lin');
    assert.equal((await post('/api/notes', '{"title": "first"}')).status, 201);
  });
});
