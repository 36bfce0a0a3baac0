// A handler that starts work and never awaits it: when that work fails, Node's default
// would end the process, and every later request would meet a closed port. The served
// process logs the rejection and goes on.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, svc, svcServer } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

const ROUTES = `import type { Router } from 'svc';

async function audit(): Promise<void> {
  throw new Error('the audit trail is down');
}

export default (router: Router) => {
  router.get('/forgetful', () => {
    void audit();
    return 'answered';
  });
};
`;

const LOGGED = /^\[\S+\] \[unhandledRejection\] A promise was rejected and nothing caught it: Error: the audit trail is down \{"error":\{"name":"Error"/m;

describe('a promise nothing caught', () => {
  let root: string;
  before(async () => {
    root = await makeProject({ 'routes/api.ts': ROUTES, 'svc.json': '{}' });
    assert.equal(svc(root, ['build']).status, 0);
  });
  after(() => removeProject(root));

  for (const command of ['serve', 'tread']) {
    it(`is logged by svc ${command}, which keeps serving`, async () => {
      const server = await svcServer(root, [command, '--port', '0']);
      const log = join(root, 'shoebox', 'logs', 'svc.log');
      try {
        for (let i = 0; i < 3; i++) assert.equal(await (await fetch(`${server.url}/forgetful`)).text(), 'answered');
        await eventually(async () => LOGGED.test(await readFile(log, 'utf8')));
        assert.match(server.output(), /svc: A promise was rejected and nothing caught it: Error: the audit trail is down/);
        assert.equal(server.child.exitCode, null);
      } finally {
        await server.stop();
      }
    });
  }
});
