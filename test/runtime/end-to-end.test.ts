// Through the real compiler: `svc build` on a project tree, then its .svc/app.mjs served.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { raw, startProject, type Running } from '../support/server.ts';

const files = {
  'routes/api.ts': `
import type { Context, Router } from 'svc';
import { UserController } from '../weave/Controllers/UserController.js';
import { StampMiddleware } from '../weave/Middleware/StampMiddleware.js';

export default (router: Router) => {
  router.get('/', () => 'Welcome');
  router.sewGet('/users/{id}', [UserController, 'show']);
  router.sewGet('/users/new', function (this: Context) { return { literal: true, path: this.path }; });
  router.sewPost('/users', ['UserController', 'store']);
  router.sewGet('/profile/{name?}', (name?: string) => ({ name: name ?? null }));
  router.group({ prefix: '/admin', middleware: [[StampMiddleware, ['admin']]] }, (r) => {
    r.sewGet('/boom', () => { throw new Error('hidden'); });
  });
};
`,
  'weave/Controllers/UserController.ts': `
import { Controller, abort } from 'svc';

export class UserController extends Controller {
  show(id: string) {
    if (id === '0') abort(404, 'No user 0');
    return { id, ip: this.ctx.ip };
  }
  store() {
    this.ctx.status(201);
    return this.ctx.json();
  }
}
`,
  'weave/Middleware/StampMiddleware.ts': `
import type { Context, Middleware, Next, Outgoing } from 'svc';

export class StampMiddleware implements Middleware {
  constructor(private readonly stamp: string) {}
  async handle(_ctx: Context, next: Next): Promise<Outgoing> {
    const out = await next();
    out.headers['x-stamp'] = this.stamp;
    return out;
  }
}
`,
  'weave/Views/errors/404.hbs': '<h1>Lost: {{detail}}</h1>',
};

describe('end to end through svc build', () => {
  let server: Running;
  before(async () => {
    server = await startProject(files);
  });
  after(() => server.close());

  it('serves closures, controllers (by reference and by name) and optional placeholders', async () => {
    assert.equal((await raw(server.url, '/')).body, 'Welcome');
    assert.deepEqual(JSON.parse((await raw(server.url, '/users/7')).body), { id: '7', ip: '127.0.0.1' });
    assert.deepEqual(JSON.parse((await raw(server.url, '/users/new/')).body), { literal: true, path: '/users/new' });
    const created = await raw(server.url, '/users', { method: 'POST', body: '{"name":"ann"}', headers: { 'content-type': 'application/json' } });
    assert.equal(created.status, 201);
    assert.deepEqual(JSON.parse(created.body), { name: 'ann' });
    assert.deepEqual(JSON.parse((await raw(server.url, '/profile')).body), { name: null });
    assert.deepEqual(JSON.parse((await raw(server.url, '/profile/bo')).body), { name: 'bo' });
  });

  it('answers 400, 404, 405 and OPTIONS from the generated dispatcher', async () => {
    assert.equal((await raw(server.url, '/users/%E0%A4%A')).status, 400);
    assert.equal((await raw(server.url, '/nowhere')).status, 404);
    const notAllowed = await raw(server.url, '/users', { method: 'GET' });
    assert.equal(notAllowed.status, 405);
    assert.match(String(notAllowed.headers.allow), /POST/);
    const options = await raw(server.url, '/users/7', { method: 'OPTIONS' });
    assert.equal(options.status, 204);
    assert.match(String(options.headers.allow), /GET/);
  });

  it('runs group middleware with its parameters and hides 500 details', async () => {
    const res = await raw(server.url, '/admin/boom');
    assert.equal(res.status, 500);
    assert.equal(res.headers['x-stamp'], 'admin');
    assert.doesNotMatch(res.body, /hidden/);
    const page = await raw(server.url, '/admin/boom', { headers: { accept: 'text/html' } });
    assert.match(page.body, /<title>500 Internal Server Error<\/title>/); // svc's default page, found from the bundle
  });

  it('renders the application’s error page override and logs the errors', async () => {
    const res = await raw(server.url, '/users/0', { headers: { accept: 'text/html' } });
    assert.equal(res.status, 404);
    assert.equal(res.body, '<h1>Lost: No user 0</h1>');
    const lines = await server.logLines();
    assert.ok(lines.some((line) => /\[404\] GET \/users\/0 404 from 127\.0\.0\.1/.test(line)));
    assert.ok(lines.some((line) => /\[500\] GET \/admin\/boom 500 .*Error: hidden/.test(line)));
  });
});
