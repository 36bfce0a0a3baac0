// A controller named by string is the class weave/Controllers/<namespace>/<Name>.ts
// exports under that name (SPEC §2), which may be an alias of a class declared elsewhere:
// the build must import it from that file, and the route must answer.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { raw, startProject } from '../support/server.ts';

const files = {
  'routes/api.ts': `
import type { Router } from 'svc';
export default (router: Router) => {
  router.get('/members', ['Members', 'index']);
  router.get('/default', ['DefRe', 'index']);
  router.get('/local', ['Local', 'index']);
  router.group({ prefix: '/admin', namespace: 'Admin' }, (admin) => {
    admin.get('/staff/{id}', ['Staff', 'show']);
  });
};
`,
  'weave/Controllers/impl/Impl.ts': `
import { Controller } from 'svc';
export default class Impl extends Controller { index() { return 'default'; } }
export class Named extends Controller { index() { return 'local'; } }
`,
  'weave/Controllers/UserController.ts': `
import { Controller } from 'svc';
export class UserController extends Controller {
  index() { return 'members'; }
  show(id: string) { return { id }; }
}
`,
  'weave/Controllers/Members.ts': "export { UserController as Members } from './UserController.js';\n",
  'weave/Controllers/DefRe.ts': "export { default as DefRe } from './impl/Impl.js';\n",
  'weave/Controllers/Local.ts': "import { Named } from './impl/Impl.js';\nexport { Named as Local };\n",
  'weave/Controllers/Admin/Staff.ts': "export { UserController as Staff } from '../UserController.js';\n",
};

it('controllers named by string and exported under an alias build and answer', async () => {
  const server = await startProject(files);
  try {
    assert.equal((await raw(server.url, '/members')).body, 'members');
    assert.equal((await raw(server.url, '/default')).body, 'default');
    assert.equal((await raw(server.url, '/local')).body, 'local');
    assert.deepEqual(JSON.parse((await raw(server.url, '/admin/staff/7')).body), { id: '7' });
  } finally {
    await server.close();
  }
});
