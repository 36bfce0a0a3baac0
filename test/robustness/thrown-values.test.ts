// Anything may be thrown or rejected with, not only an Error: an object without a
// prototype, or whose toString() throws, refuses String(). The report of such a failure
// (the 500's detail, its log line, the unhandled-rejection line) must not fail in turn:
// a request left without an answer, or a serving process brought down.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, svc, svcServer, type RunningSvc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

const ROUTES = `import type { Router } from 'svc';

export default (router: Router) => {
  router.get('/bare', () => {
    throw Object.create(null);
  });
  router.get('/refusing', async () => {
    throw { toString() { throw new Error('no text here'); } };
  });
  router.get('/plain', async () => {
    throw { code: 42 };
  });
  router.get('/forgotten', () => {
    void Promise.reject(Object.create(null));
    return 'answered';
  });
  router.get('/', () => 'still here');
};
`;

describe('values thrown that are no Error', () => {
  let root: string;
  let server: RunningSvc;
  before(async () => {
    root = await makeProject({ 'routes/web.ts': ROUTES, 'svc.json': '{}' });
    assert.equal(svc(root, ['build']).status, 0);
    server = await svcServer(root, ['serve', '--port', '0']);
  });
  after(async () => {
    await server?.stop();
    await removeProject(root);
  });

  const get = (path: string) => fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(5000) });

  for (const path of ['/bare', '/refusing', '/plain']) {
    it(`${path}: 500 problem+json, and a log line that shows what was thrown`, async () => {
      const response = await get(path);
      assert.equal(response.status, 500);
      assert.equal(((await response.json()) as { detail: string }).detail, 'The server could not handle the request.');
    });
  }

  it('logs each as what it is, not as a TypeError of its own', async () => {
    const log = join(root, 'shoebox', 'logs', 'svc.log');
    await eventually(async () => (await readFile(log, 'utf8')).includes('GET /plain 500'));
    const text = await readFile(log, 'utf8');
    assert.match(text, /GET \/bare 500 .*\): \[Object: null prototype\] \{\}/);
    assert.match(text, /GET \/refusing 500 .*\): \{ toString: \[Function: toString\] \}/);
    assert.match(text, /GET \/plain 500 .*\): \{ code: 42 \}/);
    assert.doesNotMatch(text, /Cannot convert object to primitive value/);
  });

  it('a rejection with such a value nothing caught is logged, and the process keeps serving', async () => {
    assert.equal(await (await get('/forgotten')).text(), 'answered');
    await eventually(async () => server.output().includes('nothing caught it: [Object: null prototype] {}'));
    assert.equal(await (await get('/')).text(), 'still here');
    assert.equal(server.child.exitCode, null, server.output());
  });
});
