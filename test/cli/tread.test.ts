import assert from 'node:assert/strict';
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';
import { eventually, svcServer, type RunningSvc } from '../support/cli.ts';
import { exchange, expectContinue, sendThen, trickleHeaders } from '../robustness/raw-http.ts';

const routes = (body: string): string => `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => ${body});
};
`;

let root: string;
let tread: RunningSvc;

before(async () => {
  root = await makeProject({ 'routes/web.ts': routes("'first'") });
  tread = await svcServer(root, ['tread', '--port', '0']);
});

after(async () => {
  await tread.stop();
  await removeProject(root);
});

const home = async (): Promise<string> => (await fetch(`${tread.url}/`)).text();

test('serves the first build', async () => {
  assert.equal(await home(), 'first');
});

test('an edit to a route file is served without a restart', async () => {
  await writeFiles(root, { 'routes/web.ts': routes("'second'") });
  await eventually(async () => (await home()) === 'second');
});

test('a broken edit prints the diagnostic and keeps the last good build serving', async () => {
  await writeFiles(root, { 'routes/web.ts': routes("'third'").replace("router.get('/', () => 'third');", "router.get('/', () => 'third');\n  router.get('/', () => 'again');") });
  await eventually(async () => tread.output().includes('error SVC001'));
  assert.match(tread.output(), /routes\/web\.ts:4:3 - error SVC001/);
  assert.equal(await home(), 'second');
});

test('an edit esbuild rejects prints the diagnostic and keeps the last good build serving', async () => {
  await writeFiles(root, { 'routes/web.ts': `import { word } from './words.ts';\n${routes('word')}` });
  await eventually(async () => tread.output().includes('error SVC011'));
  assert.match(tread.output(), /routes\/web\.ts:1:22 - error SVC011: Could not resolve "\.\/words\.ts"/);
  assert.doesNotMatch(tread.output(), /at failureErrorWithLog/);
  assert.equal(await home(), 'second');
});

/** Builds tread has finished, good or failed. */
const builds = (): number => tread.output().split(/svc tread: built|svc tread: build failed/).length - 1;
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1000));

test("an editor's save through a temporary file renamed over the route file builds once", async () => {
  const before = builds();
  await writeFiles(root, { 'routes/sedX1b2c3': routes("'renamed'") }); // as `sed -i` saves
  await new Promise((resolve) => setTimeout(resolve, 300)); // long enough for the watcher to see it
  await rename(join(root, 'routes', 'sedX1b2c3'), join(root, 'routes', 'web.ts'));
  await eventually(async () => (await home()) === 'renamed');
  await settled(); // the temporary file's deletion reaches the watcher too
  assert.equal(builds(), before + 1, tread.output());
});

// Each way usually builds once (chokidar holds no deletion back); a busy machine can still
// spread the events of a moved folder past the debounce, so the count is not asserted.
test('a folder moved away fails the build where it was imported, and moved back serves again', async () => {
  await writeFiles(root, {
    'weave/Lib/word.ts': "export const word = 'moved';\n",
    'routes/moved.ts': `import type { Router } from 'svc';\nimport { word } from '../weave/Lib/word.ts';\nexport default (router: Router) => { router.get('/moved', () => word); };\n`,
  });
  await eventually(async () => (await fetch(`${tread.url}/moved`)).status === 200);
  await settled();
  const before = builds();
  await rename(join(root, 'weave', 'Lib'), join(root, 'weave', 'Text'));
  await eventually(async () => /routes\/moved\.ts:2:22 - error SVC011/.test(tread.output()));
  assert.equal(await (await fetch(`${tread.url}/moved`)).text(), 'moved'); // the last good build
  // Changed while away, so that only a build of the folder moved back can answer 'back'.
  await writeFiles(root, { 'weave/Text/word.ts': "export const word = 'back';\n" });
  await rename(join(root, 'weave', 'Text'), join(root, 'weave', 'Lib'));
  await eventually(async () => (await (await fetch(`${tread.url}/moved`)).text()) === 'back');
  // A build is served before it prints its line (its API document is written in between).
  await eventually(async () => builds() >= before + 2);
});

test('an edit to a file a route file imports from outside routes/ and weave/ is served; a broken one keeps the last good build', async () => {
  const show = (body: string): string => `export default function show(): string {\n  return ${body};\n}\n`;
  const shown = async (): Promise<string> => (await fetch(`${tread.url}/show`)).text();
  await writeFiles(root, {
    'handlers/show.ts': show("'shown'"),
    'routes/show.ts': `import type { Router } from 'svc';\nimport show from '../handlers/show.ts';\nexport default (router: Router) => { router.get('/show', show); };\n`,
  });
  await eventually(async () => (await shown()) === 'shown');
  await writeFiles(root, { 'handlers/show.ts': show("'edited'") });
  await eventually(async () => (await shown()) === 'edited');
  await writeFiles(root, { 'handlers/show.ts': show("'broken' +") });
  await eventually(async () => /handlers\/show\.ts:\d+:\d+ - error SVC010/.test(tread.output()));
  assert.equal(await shown(), 'edited');
  await writeFiles(root, { 'handlers/show.ts': show("'fixed'") });
  await eventually(async () => (await shown()) === 'fixed');
});

test('an edit to a plain JavaScript file, which only the bundler reads, is served', async () => {
  const greeting = async (): Promise<string> => (await fetch(`${tread.url}/greeting`)).text();
  await writeFiles(root, {
    'lib/greeting.js': "export const greeting = 'hi';\n",
    'routes/greeting.ts': `import type { Router } from 'svc';\n// @ts-expect-error: plain JavaScript, no types\nimport { greeting } from '../lib/greeting.js';\nexport default (router: Router) => { router.get('/greeting', (): string => greeting); };\n`,
  });
  await eventually(async () => (await greeting()) === 'hi');
  await writeFiles(root, { 'lib/greeting.js': "export const greeting = 'hello';\n" });
  await eventually(async () => (await greeting()) === 'hello');
});

test('a new route file is picked up', async () => {
  await writeFiles(root, {
    'routes/web.ts': routes("'fixed'"),
    'routes/extra.ts': `import type { Router } from 'svc';\nexport default (router: Router) => { router.get('/extra', () => ({ extra: true })); };\n`,
  });
  await eventually(async () => (await fetch(`${tread.url}/extra`)).status === 200);
  assert.equal(await home(), 'fixed');
});

test('an edit to a model a route file imports reaches the API document', async () => {
  const schema = async (): Promise<unknown> => {
    const document = (await (await fetch(`${tread.url}/svc/docs/openapi.json`)).json()) as { components?: { schemas?: Record<string, unknown> } };
    return document.components?.schemas?.Note;
  };
  await writeFiles(root, {
    'weave/Note.ts': 'export interface Note { title: string }\n',
    'routes/notes.ts': `import type { Router } from 'svc';\nimport type { Note } from '../weave/Note.ts';\nexport default (router: Router) => { router.get('/notes', (): Note[] => []); };\n`,
  });
  await eventually(async () => JSON.stringify(await schema()).includes('title'));
  await writeFiles(root, { 'weave/Note.ts': 'export interface Note { title: string; pinned: boolean }\n' });
  await eventually(async () => JSON.stringify(await schema()).includes('pinned'));
});

test('a CONNECT request gets the pipeline answer, as under svc serve', async () => {
  const { response } = await exchange(tread.url, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n');
  assert.equal(response.status, 400);
  assert.equal(response.headers['content-type'], 'application/problem+json');
});

test("what node's parser refuses, and a request without Host, get problem+json and a log line, as under svc serve", async () => {
  for (const request of ['get / HTTP/1.1\r\nhost: a\r\n\r\n', 'GET / HTTP/1.1\r\nconnection: close\r\n\r\n']) {
    const { response } = await exchange(tread.url, request);
    assert.equal(response.status, 400);
    assert.equal(response.headers['content-type'], 'application/problem+json');
  }
  const log = join(root, 'shoebox', 'logs', 'svc.log');
  await eventually(async () => (await readFile(log, 'utf8')).includes('] [400] client error HPE_INVALID_METHOD from '));
  await eventually(async () => (await readFile(log, 'utf8')).includes('] [400] GET / 400 from '));
});

test('Expect: 100-continue to a missing path gets 404 without being asked for the body, as under svc serve', async () => {
  const { invited, response } = await expectContinue(tread.url, 'POST /nope HTTP/1.1\r\nhost: a\r\ncontent-length: 4\r\nexpect: 100-continue\r\n\r\n', 'body');
  assert.deepEqual({ invited, status: response.status }, { invited: false, status: 404 });
});

test('any other Expect gets 417 problem+json, as under svc serve (tread-server.mjs wires the same listeners)', async () => {
  const { response } = await exchange(tread.url, 'POST /nope HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\nexpect: 200-ok\r\nconnection: close\r\n\r\nhi');
  assert.equal(response.status, 417);
  assert.equal(response.headers['content-type'], 'application/problem+json');
});

test('a client that shuts its sending side after the request still gets the answer, as under svc serve', async () => {
  // The health endpoint answers asynchronously, after the client's FIN has arrived.
  const answer = await sendThen(tread.url, 'GET /svc/health HTTP/1.1\r\nhost: a\r\n\r\n', 'end', 0);
  assert.match(answer, /^HTTP\/1\.1 200 /);
});

test("each build's svc.json timeouts apply to the server tread keeps listening", async () => {
  const builds = (): number => tread.output().match(/svc tread: built /g)?.length ?? 0;
  const before = builds();
  await writeFiles(root, { 'svc.json': JSON.stringify({ server: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 } }) });
  await eventually(async () => builds() > before);
  const { answer, ms } = await trickleHeaders(tread.url);
  assert.match(answer, /^HTTP\/1\.1 408 /);
  assert.ok(ms >= 900 && ms < 5000, `closed after ${Math.round(ms)} ms (headersTimeoutMs is 1000)`);
});

test("an edit to tsconfig.json's paths is built: an aliased import follows it", async () => {
  const paths = (folder: string) => JSON.stringify({ compilerOptions: { paths: { '@words/*': [`./weave/${folder}/*`] } } });
  await writeFiles(root, {
    'weave/English/word.ts': "export const word = 'hello';\n",
    'weave/French/word.ts': "export const word = 'bonjour';\n",
    'tsconfig.json': paths('English'),
    'routes/aliased.ts': `import type { Router } from 'svc';\nimport { word } from '@words/word.ts';\nexport default (router: Router) => { router.get('/word', () => word); };\n`,
  });
  const word = async (): Promise<string> => (await fetch(`${tread.url}/word`)).text();
  await eventually(async () => (await word()) === 'hello');
  await writeFiles(root, { 'tsconfig.json': paths('French') });
  await eventually(async () => (await word()) === 'bonjour');
});
