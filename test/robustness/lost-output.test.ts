// A server whose stderr nobody reads any more (`svc serve 2>&1 | head`, a log shipper that
// died) keeps serving: a write there fails with EPIPE, which must not end the process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject, repoRoot } from '../support/project.ts';

let root: string;

before(async () => {
  root = await makeProject({
    'routes/web.ts': `import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/', () => 'hello');
  // Each forgotten rejection is said on stderr as well as in svc.log.
  router.get('/forgot', () => { void Promise.reject(new Error('forgotten')); return 'ok'; });
};
`,
  });
  assert.equal(svc(root, ['build']).status, 0);
});

after(() => removeProject(root));

function servingUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const found = /serving (http:\/\/\S+)/.exec(output);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${output}`)));
  });
}

for (const command of ['serve', 'tread']) {
  test(`svc ${command} keeps serving when its stderr has lost its reader`, async () => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'svc.js'), command, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await servingUrl(child);
      child.stderr!.destroy();
      for (let i = 0; i < 3; i++) assert.equal((await fetch(`${url}/forgot`)).status, 200);
      assert.equal((await fetch(url)).status, 200);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      child.kill('SIGKILL');
    }
  });
}
