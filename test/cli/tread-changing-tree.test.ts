// svc tread while the tree changes under it in ways an editor, a git checkout or a shell
// can: each rebuild reports what is wrong as a diagnostic (never an exception's stack),
// keeps the last good build serving, and serves the tree once it is right again.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';
import { eventually, svcServer, type RunningSvc } from '../support/cli.ts';

const routes = (path: string, body: string): string => `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('${path}', () => ${body});
};
`;

let root: string;
let tread: RunningSvc;

before(async () => {
  root = await makeProject({ 'routes/web.ts': routes('/', "'home'"), 'routes/page.ts': routes('/page', "'page'") });
  tread = await svcServer(root, ['tread', '--port', '0']);
});

after(async () => {
  await tread.stop();
  await removeProject(root);
});

const text = async (path: string): Promise<string> => (await fetch(`${tread.url}${path}`)).text();

test('a route file that becomes a folder is a diagnostic, not an exception; a file again, it is served', async () => {
  assert.equal(await text('/page'), 'page');
  await rm(join(root, 'routes', 'page.ts'));
  await mkdir(join(root, 'routes', 'page.ts'));
  await eventually(async () => tread.output().includes('routes/page.ts:1:1 - error SVC012: routes/page.ts is a folder'));
  assert.doesNotMatch(tread.output(), /EISDIR/); // the warm analysis read it as a file: a stack, no diagnostic
  assert.equal(await text('/page'), 'page'); // the last good build
  // Built without it first: a folder replaced by a file at once goes unseen (chokidar).
  const built = (): number => tread.output().split('svc tread: built').length;
  const before = built();
  await rm(join(root, 'routes', 'page.ts'), { recursive: true });
  await eventually(async () => built() > before);
  await writeFiles(root, { 'routes/page.ts': routes('/page', "'page again'") });
  await eventually(async () => (await text('/page')) === 'page again');
});

// chokidar reports no 'change' of a file for 50 ms after it reported one. At one of these
// gaps the second save lands after the build the first one started has read the file (the
// analysis, which names the route, at least): without a second look it was never built.
test('a second save soon after the first is built (a formatter run on save)', async () => {
  for (const gap of [15, 25, 35, 45]) {
    await writeFiles(root, { 'routes/saved.ts': routes(`/first-save-${gap}`, "'first'") });
    await delay(gap);
    await writeFiles(root, { 'routes/saved.ts': routes(`/second-save-${gap}`, "'second'") });
    await eventually(async () => (await text(`/second-save-${gap}`)) === 'second', 5000);
  }
});

test('a route file that replaces a folder of its name at once is built, and so are its edits', async () => {
  // chokidar misses it more often than not: three files, so that it does, one at least.
  for (const name of ['one', 'two', 'three']) {
    await mkdir(join(root, 'routes', `${name}.ts`));
    await eventually(async () => tread.output().includes(`routes/${name}.ts is a folder`));
    // At once, as a checkout does: the watcher then saw nothing more of the file.
    rmSync(join(root, 'routes', `${name}.ts`), { recursive: true });
    writeFileSync(join(root, 'routes', `${name}.ts`), routes(`/${name}`, "'a file'"));
    await eventually(async () => (await text(`/${name}`)) === 'a file');
    await writeFiles(root, { [`routes/${name}.ts`]: routes(`/${name}`, "'edited'") });
    await eventually(async () => (await text(`/${name}`)) === 'edited');
  }
});
