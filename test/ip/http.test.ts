// SPEC §5 over HTTP: a project built by the real `svc build`, served from its bundle on
// `::` (the bundle's handler loads the IP tables that build wrote), and clients on chosen
// loopback addresses (127.0.0.x, ::1) — including every path trick that must not slip
// past a route's rule.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppHandler, HandlerOptions } from '../../runtime/server/index.ts';
import { svc } from '../support/cli.ts';
import { makeProject, removeProject } from '../support/project.ts';

const files = {
  'routes/web.ts': `import type { Context, Router } from 'svc';

export default (router: Router) => {
  router.get('/', () => 'home');
  router.get('/whoami', function (this: Context) {
    return this.ip;
  });
  router.get('/admin', () => 'admin');
  router.get('/admin/{page}', (page: string) => \`admin \${page}\`);
  router.get('/administrator', () => 'administrator');
  router.get('/both', () => 'both');
  router.get('/__proto__', () => 'proto');
};
`,
  'svc.json': JSON.stringify({
    ip: {
      blacklist: ['127.0.0.66'],
      trustProxy: ['127.0.0.2'],
      routes: {
        '/admin': { whitelist: ['127.0.0.1', '::1'] },
        '/admin/override': { whitelist: ['127.0.0.66'] },
        '/both': { whitelist: ['127.0.0.0/24'], blacklist: ['127.0.0.7'] },
        // A key without its optional leading slash; computed, so that it is a key and not the prototype.
        ['__proto__']: { whitelist: ['127.0.0.1'] },
      },
    },
  }),
};

let root: string;
let server: Server;
let handler: AppHandler;
let port: number;

before(async () => {
  root = await makeProject(files);
  const built = svc(root, ['build']);
  assert.equal(built.status, 0, built.stderr);
  const bundle = (await import(pathToFileURL(join(root, '.svc', 'app.mjs')).href)) as { handler(options: HandlerOptions): Promise<AppHandler> };
  handler = await bundle.handler({ root });
  server = createServer(handler.handle);
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
  await removeProject(root);
});

function get(from: string, path: string, headers: OutgoingHttpHeaders = {}): Promise<{ status: number; body: string }> {
  const host = from.includes(':') ? '::1' : '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, localAddress: from, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject).end();
  });
}

const status = async (from: string, path: string, headers?: OutgoingHttpHeaders): Promise<number> => (await get(from, path, headers)).status;

test('a route whitelist admits its addresses, IPv4 (arriving IPv4-mapped) and IPv6', async () => {
  assert.equal((await get('127.0.0.1', '/admin')).body, 'admin');
  assert.equal(await status('127.0.0.1', '/admin/users'), 200);
  assert.equal(await status('::1', '/admin'), 200);
  assert.equal((await get('127.0.0.1', '/whoami')).body, '127.0.0.1');
});

test('a non-empty route whitelist without the address denies the path and everything below it, not its neighbours', async () => {
  assert.equal(await status('127.0.0.5', '/admin'), 403);
  assert.equal(await status('127.0.0.5', '/admin/users'), 403);
  assert.equal(await status('127.0.0.5', '/administrator'), 200);
  assert.equal(await status('127.0.0.5', '/'), 200);
});

test('no spelling of the path slips past the route rule', async () => {
  for (const path of ['/%61dmin', '/%61dmin/users', '/admin/', '//admin', '/./admin', '/x/../admin', '/admin/x/..', '/%2e/admin', '/x/%2e%2e/admin', '/admin?x=1', '/admin/users/']) {
    assert.equal(await status('127.0.0.5', path), 403, path);
  }
  // An encoded slash keeps the segment whole: it is not /admin/users, so no admin route answers.
  const encoded = await get('127.0.0.5', '/admin%2Fusers');
  assert.notEqual(encoded.status, 200, encoded.body);
  assert.notEqual((await get('127.0.0.5', '/Admin')).body, 'admin');
});

test('the longest key decides first, and a route whitelist overrides the global blacklist', async () => {
  assert.equal(await status('127.0.0.66', '/admin/override'), 200);
  assert.equal(await status('127.0.0.1', '/admin/override'), 403);
  assert.equal(await status('127.0.0.1', '/admin/other'), 200);
});

test('global rules apply to every request, unknown paths and built-in endpoints included', async () => {
  assert.equal(await status('127.0.0.66', '/'), 403);
  assert.equal(await status('127.0.0.66', '/admin'), 403);
  assert.equal(await status('127.0.0.66', '/no/such/path'), 403);
  assert.equal(await status('127.0.0.5', '/no/such/path'), 404);
  assert.equal(await status('127.0.0.66', '/svc/metrics'), 403);
  assert.equal(await status('127.0.0.5', '/svc/metrics'), 200);
  // Even a target with no valid path meets the global rules before its 400 or 414.
  assert.equal(await status('127.0.0.66', '/foo%'), 403);
  assert.equal(await status('127.0.0.5', '/foo%'), 400);
  assert.equal(await status('127.0.0.66', `/${'x'.repeat(9000)}`), 403);
  assert.equal(await status('127.0.0.5', `/${'x'.repeat(9000)}`), 414);
});

test('a target refused as malformed or too long meets the rules of the path it starts with', async () => {
  for (const path of ['/admin/%ZZ', '/%61dmin/x/%E0%A4%A', '/admin/x/../%', `/admin/${'x'.repeat(9000)}`, 'http://host/admin/%ZZ']) {
    assert.equal(await status('127.0.0.5', path), 403, path.slice(0, 40));
  }
  assert.equal(await status('127.0.0.1', '/admin/%ZZ'), 400);
  assert.equal(await status('127.0.0.5', '/administrator/%ZZ'), 400);
  // Dot segments after the malformed one cannot be resolved: the rules of what comes before hold.
  assert.equal(await status('127.0.0.5', '/public/%ZZ/../../admin'), 400);
});

test('a key that is also the name of an object\'s prototype (__proto__) keeps its rules', async () => {
  assert.equal(await status('127.0.0.1', '/__proto__'), 200);
  assert.equal(await status('127.0.0.5', '/__proto__'), 403);
});

test('an address on both lists of one level is denied', async () => {
  assert.equal(await status('127.0.0.7', '/both'), 403);
  assert.equal(await status('127.0.0.8', '/both'), 200);
  assert.equal(await status('::1', '/both'), 403);
});

test('X-Forwarded-For counts only from a trusted proxy', async () => {
  assert.equal(await status('127.0.0.2', '/admin', { 'x-forwarded-for': '127.0.0.1' }), 200);
  assert.equal((await get('127.0.0.2', '/whoami', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' })).body, '203.0.113.9');
  assert.equal(await status('127.0.0.2', '/admin', { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }), 403);
  assert.equal(await status('127.0.0.5', '/admin', { 'x-forwarded-for': '127.0.0.1' }), 403);
  assert.equal(await status('127.0.0.66', '/', { 'x-forwarded-for': '127.0.0.1' }), 403);
  assert.equal((await get('127.0.0.5', '/whoami', { 'x-forwarded-for': '127.0.0.1' })).body, '127.0.0.5');
});

test('ctx.ip from X-Forwarded-For is in canonical form, and meets the rules as that address', async () => {
  assert.equal((await get('127.0.0.2', '/whoami', { 'x-forwarded-for': '0:0:0:0:0:0:0:1' })).body, '::1');
  assert.equal(await status('127.0.0.2', '/admin', { 'x-forwarded-for': '0:0:0:0:0:0:0:1' }), 200);
});
