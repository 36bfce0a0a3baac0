// A controller named by string is the class weave/Controllers/<namespace>/<Name>.ts
// exports under that name (SPEC §2), which may be an alias of a class declared elsewhere:
// the build must import it from that file, and the route must answer.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { svc } from '../support/cli.ts';
import { raw, startProject } from '../support/server.ts';

const files = {
  'routes/api.ts': `
import type { Router } from 'svc';
import { Members } from '../weave/Controllers/Members.js';
import { Stamp } from '../weave/Middleware/Stamp.js';
export default (router: Router) => {
  router.get('/members', ['Members', 'index']);
  router.group({ middleware: [Stamp, 'Stamp'] }, (stamped) => {
    stamped.get('/members/by-reference', [Members, 'index']);
  });
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
  'weave/Middleware/impl/Real.ts': `
import type { Context, Middleware, Next } from 'svc';
export class Real implements Middleware { handle(_ctx: Context, next: Next) { return next(); } }
`,
  'weave/Middleware/Stamp.ts': "export { Real as Stamp } from './impl/Real.js';\n",
  'weave/Controllers/Admin/Staff.ts': "export { UserController as Staff } from '../UserController.js';\n",
};

it('controllers named by string and exported under an alias build and answer', async () => {
  const server = await startProject(files);
  try {
    assert.equal((await raw(server.url, '/members')).body, 'members');
    assert.equal((await raw(server.url, '/members/by-reference')).body, 'members');
    assert.equal((await raw(server.url, '/default')).body, 'default');
    assert.equal((await raw(server.url, '/local')).body, 'local');
    assert.deepEqual(JSON.parse((await raw(server.url, '/admin/staff/7')).body), { id: '7' });
    // Named as the module the route file reads it from exports it, whether by reference or by string.
    const listed = JSON.parse(svc(server.root, ['route', 'list', '--json']).stdout) as Array<{ path: string; handler: string; middleware: string[] }>;
    const members = listed.filter((r) => r.path.startsWith('/members'));
    assert.deepEqual(members.map((r) => [r.handler, r.middleware]), [
      ['Members.index', []],
      ['Members.index', ['Stamp', 'Stamp']],
    ]);
  } finally {
    await server.close();
  }
});
