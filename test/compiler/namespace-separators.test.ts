// A group namespace names folders under weave/Controllers/ (SPEC §2). A Laravel user
// writes them with backslashes (`'Admin\\Reports'`): the build takes those as folder
// separators, so the bundle must import the same file the analysis read.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { raw, startProject } from '../support/server.ts';

it('a namespace written with backslashes resolves and answers like one written with slashes', async () => {
  const server = await startProject({
    'routes/web.ts': `
import type { Router } from 'svc';
export default (router: Router) => {
  router.group({ prefix: '/back', namespace: 'Admin\\\\Reports' }, (g) => { g.get('/', ['ReportController', 'index']); });
  router.group({ prefix: '/outer', namespace: 'Admin' }, (g) => {
    g.group({ namespace: '\\\\Reports\\\\' }, (inner) => { inner.get('/', ['ReportController', 'index']); });
  });
};
`,
    'weave/Controllers/Admin/Reports/ReportController.ts': "export class ReportController { index() { return 'reports'; } }\n",
  });
  try {
    assert.equal((await raw(server.url, '/back')).body, 'reports');
    assert.equal((await raw(server.url, '/outer')).body, 'reports');
  } finally {
    await server.close();
  }
});
