// `svc serve` runs .svc/app.mjs, but the stack traces it logs and prints name the
// TypeScript the user wrote, through the bundle's source map.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { svc, svcServer } from '../support/cli.ts';
import { makeProject, removeProject, writeFiles } from '../support/project.ts';

const ROUTES = `import type { Router } from 'svc';
import { ReportController } from '../weave/Controllers/ReportController.js';

export default (router: Router) => {
  router.get('/report', [ReportController, 'show']);
};
`;

const THROWS_IN_HANDLER = `export class ReportController {
  show() {
    const totals: { rows?: { count: number } } = {};
    return { count: totals.rows!.count };
  }
}
`;

const THROWS_AT_LOAD = `const settings: { limit?: { value: number } } = {};
export const limit = settings.limit!.value;

export class ReportController {
  show() {
    return { limit };
  }
}
`;

describe('stack traces under svc serve', () => {
  let root: string;
  before(async () => {
    root = await makeProject({ 'routes/api.ts': ROUTES, 'weave/Controllers/ReportController.ts': THROWS_IN_HANDLER, 'svc.json': '{}' });
  });
  after(() => removeProject(root));

  it('logs a failing handler at its line in the controller, not in .svc/app.mjs', async () => {
    assert.equal(svc(root, ['build']).status, 0);
    const server = await svcServer(root, ['serve', '--port', '0']);
    try {
      assert.equal((await fetch(`${server.url}/report`)).status, 500);
    } finally {
      await server.stop(); // flushes the log
    }
    const log = await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    const stack = (JSON.parse(log.slice(log.indexOf(' {"route"'))) as { error: { stack: string } }).error.stack;
    const first = stack.split('\n')[1]!;
    assert.match(first, /at ReportController\.show \(.*weave\/Controllers\/ReportController\.ts:4:/);
    assert.doesNotMatch(stack, /app\.mjs/);
  });

  it('points an application that throws while loading at its source line', async () => {
    await writeFiles(root, { 'weave/Controllers/ReportController.ts': THROWS_AT_LOAD });
    assert.equal(svc(root, ['build']).status, 0);
    const served = svc(root, ['serve', '--port', '0']);
    assert.equal(served.status, 1);
    assert.match(served.stderr, /weave\/Controllers\/ReportController\.ts:2\n/);
    assert.match(served.stderr, /TypeError: Cannot read properties of undefined \(reading 'value'\)/);
  });
});
