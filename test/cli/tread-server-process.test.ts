// The process `svc tread` serves from (compiler/cli/serving-process.ts): stopping tread
// stops it once its requests in flight have finished, even stuck in an endless loop (it
// never answers, and would be left holding the port); one that dies, or hangs loading a
// build, is replaced by a fresh one serving the last good build, even once .svc/ holds a
// newer build that failed to load; one replaced after its builds finishes its requests.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, test, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { build } from '../../compiler/build.ts';
import { ServingProcess } from '../../compiler/cli/serving-process.ts';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';
import { eventually, svcServer } from '../support/cli.ts';

const roots: string[] = [];
after(async () => Promise.all(roots.map(removeProject)));

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

test('SIGTERM ends tread and its server process, even one stuck in a handler', async (t) => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => 'up');
  router.get('/spin', () => { for (;;) {} });
};
`,
  });
  roots.push(root);
  const tread = await svcServer(root, ['tread', '--port', '0']);
  const port = Number(new URL(tread.url).port);
  assert.equal(await (await fetch(tread.url)).text(), 'up');
  const spinning = new AbortController();
  fetch(`${tread.url}/spin`, { signal: spinning.signal }).catch(() => {}); // never answered
  t.after(() => spinning.abort());
  await new Promise((resolve) => setTimeout(resolve, 300));
  const exited = new Promise<number | null>((resolve) => tread.child.once('exit', resolve));
  tread.child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.ok(await refused(port), 'the port is still held: the server process outlived tread');
});

const slowRoutes = `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/pid', () => String(process.pid));
  router.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    return 'done';
  });
};
`;

test('stopping tread lets the requests in flight finish first', async () => {
  const root = await makeProject({ 'routes/web.ts': slowRoutes });
  roots.push(root);
  const tread = await svcServer(root, ['tread', '--port', '0']);
  const slow = fetch(`${tread.url}/slow`).then((response) => response.text());
  await delay(200);
  const exited = new Promise<number | null>((resolve) => tread.child.once('exit', resolve));
  tread.child.kill('SIGTERM');
  assert.equal(await slow, 'done');
  assert.equal(await exited, 0);
  assert.ok(await refused(Number(new URL(tread.url).port)));
});

test('a request in flight across a rebuild finishes on the build it started with: its database connection, its count', async () => {
  const root = await makeProject({
    'routes/web.ts': `import { existsSync } from 'node:fs';
import { db, type Router } from 'svc';
export default (router: Router) => {
  // Runs until the test has seen the rebuild served.
  router.get('/held', async () => {
    const before = db();
    while (!existsSync('release')) await new Promise((resolve) => setTimeout(resolve, 20));
    return before === db() ? 'same connection' : 'reopened';
  });
};
`,
  });
  roots.push(root);
  const tread = await svcServer(root, ['tread', '--port', '0']);
  try {
    const held = fetch(`${tread.url}/held`).then((response) => response.text());
    await delay(200);
    await writeFiles(root, { 'routes/more.ts': "import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/more', () => 'more'); };\n" });
    await eventually(async () => (await text(`${tread.url}/more`)) === 'more');
    await writeFile(join(root, 'release'), '');
    assert.equal(await held, 'same connection');
    // Counted by the build that answered it, and handed to the new one once that finished.
    await eventually(async () => /svc_route_hits_total\{method="GET",route="\/held"\} 1\n/.test((await text(`${tread.url}/svc/metrics`)) ?? ''));
  } finally {
    await tread.stop();
  }
});

/**
 * A serving process replaced after every second build, serving the first build of a
 * project of `slowRoutes` on a free port; `bundle(n)` is the URL of its build as load n.
 */
async function servingEveryOtherBuild(t: TestContext): Promise<{ server: ServingProcess; bundle: (version: number) => string; url: string }> {
  const root = await makeProject({ 'routes/web.ts': slowRoutes });
  roots.push(root);
  assert.ok((await build(root)).ok);
  const server = new ServingProcess(root, (why) => assert.fail(why), 2);
  t.after(() => server.stop());
  const bundle = (version: number): string => `${pathToFileURL(join(root, '.svc', 'app.mjs')).href}?v=${version}`;
  assert.deepEqual(await server.load(bundle(1)), { loaded: true });
  const listening = await server.listen('127.0.0.1', 0);
  assert.ok('listening' in listening);
  return { server, bundle, url: listening.listening };
}

test('a process replaced after its builds lets go of the address, then finishes its requests in flight', async (t) => {
  const { server, bundle, url } = await servingEveryOtherBuild(t);
  const first = await text(`${url}/pid`);
  const slow = fetch(`${url}/slow`).then((response) => response.text());
  await delay(200);
  // The second build this process loads is its last: a fresh one takes over the address.
  assert.deepEqual(await server.load(bundle(2)), { loaded: true });
  assert.equal(await slow, 'done');
  await eventually(async () => {
    const pid = await text(`${url}/pid`);
    return pid !== null && pid !== first;
  });
});

test('a replacement accepts on the listening socket before the process it replaces lets go: no connection is refused', async (t) => {
  const { server, bundle, url } = await servingEveryOtherBuild(t);
  const { port } = new URL(url);
  // A new connection for every request, from four clients at once, while three processes take over.
  const pids = new Set<string>();
  const failures: string[] = [];
  let loading = true;
  const client = async (): Promise<void> => {
    while (loading) {
      await pidOnce(Number(port)).then(
        (pid) => pids.add(pid),
        (error: NodeJS.ErrnoException) => failures.push(error.code ?? error.message),
      );
    }
  };
  const clients = Promise.all([client(), client(), client(), client()]);
  for (let version = 2; version <= 7; version++) assert.deepEqual(await server.load(bundle(version)), { loaded: true });
  loading = false;
  await clients;
  assert.deepEqual(failures, []);
  assert.ok(pids.size >= 3, `served by ${pids.size} processes`);
});

/** GET /pid on a connection of its own. */
const pidOnce = (port: number): Promise<string> =>
  new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path: '/pid', agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body)).on('error', reject);
    });
    req.on('error', reject).end();
  });

/** The body of GET `url`, or null when no answer comes within a second (a process stuck in a loop). */
const text = async (url: string): Promise<string | null> => {
  const response = await fetch(url, { signal: AbortSignal.timeout(1000) }).catch(() => null);
  return response && (await response.text());
};

test('a server process that dies, or hangs loading a build, is replaced', async (t) => {
  const root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => 'up');
  router.get('/boom', () => { setTimeout(() => { throw new Error('thrown in a timer'); }, 10); return 'soon'; });
};
`,
  });
  roots.push(root);
  const tread = await svcServer(root, ['tread', '--port', '0']);
  t.after(() => tread.stop());
  assert.equal(await text(`${tread.url}/boom`), 'soon');
  // The timer's exception ends the process; a new one serves the same build.
  await eventually(async () => tread.output().includes('the server process exited (1); a new server process takes over'));
  await eventually(async () => (await text(tread.url)) === 'up');

  // A build that throws as it loads is not served; `.svc/` holds it now, but a process
  // replaced after that still serves the last good build.
  await writeFiles(root, {
    'routes/throws.ts': "import type { Router } from 'svc';\nthrow new Error('at load');\nexport default (router: Router) => { router.get('/thrown', () => 'never'); };\n",
  });
  await eventually(async () => tread.output().includes('the new build failed to start; still serving the last good build'));
  assert.equal(await text(`${tread.url}/boom`), 'soon');
  await eventually(async () => tread.output().split('a new server process takes over').length === 3);
  await eventually(async () => (await text(tread.url)) === 'up');
  // The API document stays the served build's.
  const documented = (await (await fetch(`${tread.url}/svc/docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
  assert.deepEqual(Object.keys(documented.paths).sort(), ['/', '/boom']);
  await rm(join(root, 'routes', 'throws.ts'));

  const loop = "import type { Router } from 'svc';\nfor (;;) {}\nexport default (router: Router) => { router.get('/loop', () => 'never'); };\n";
  await writeFiles(root, { 'routes/loop.ts': loop });
  await eventually(async () => tread.output().includes('did not finish loading within 10 s'), 30_000);
  await eventually(async () => tread.output().split('a new server process takes over').length === 4);
  await eventually(async () => (await text(tread.url)) === 'up'); // the last good build, not the one that hangs
  await writeFiles(root, { 'routes/loop.ts': loop.replace('for (;;) {}\n', '') });
  await eventually(async () => (await text(`${tread.url}/loop`)) === 'never');
  assert.equal(await text(tread.url), 'up');
});
