// Start-up: binding the replayed route files to the manifest, builtin endpoints, boot.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import type { Context } from '../../runtime/context.ts';
import { boot, createHandler, StaleBuildError } from '../../runtime/server/index.ts';
import { handApp } from '../support/hand-app.ts';
import { makeProject, removeProject } from '../support/project.ts';
import { raw, startApp } from '../support/server.ts';

const whoami = function (this: Context) {
  return { ip: this.ip };
};

describe('binding the build to the route files', () => {
  it('refuses a manifest whose routes differ from the route files', async () => {
    const app = handApp([{ method: 'GET', pattern: '/a', handler: () => 'a' }]);
    app.manifest.routes[0] = { ...app.manifest.routes[0]!, method: 'POST' };
    await assert.rejects(createHandler(app, { root: '.' }), (e: Error) => {
      assert.ok(e instanceof StaleBuildError);
      assert.match(e.message, /GET \/a in the route files but POST \/a .* run `svc build`/);
      return true;
    });
  });

  it('refuses a manifest with a different number of routes', async () => {
    const app = handApp([{ method: 'GET', pattern: '/a', handler: () => 'a' }]);
    app.manifest.routes.push({ ...app.manifest.routes[0]!, id: 1, pattern: '/b' });
    await assert.rejects(createHandler(app, { root: '.' }), /register 1 routes but the manifest lists 2.*svc build/);
  });

  it('refuses a class named by string that the build does not hold', async () => {
    const app = handApp([{ method: 'GET', pattern: '/a', handler: ['GhostController', 'show'] }]);
    await assert.rejects(createHandler(app, { root: '.' }), /class GhostController from test is not in the build/);
  });

  it('refuses a controller method that does not exist', async () => {
    class Thin {}
    const app = handApp([{ method: 'GET', pattern: '/a', handler: [Thin, 'missing'] }]);
    await assert.rejects(createHandler(app, { root: '.' }), /Thin has no method missing/);
  });
});

describe('builtin endpoints', () => {
  const app = () => handApp([{ method: 'GET', pattern: '/a', handler: () => 'a' }], { builtins: [{ pattern: '/svc/health', name: 'health' }] });

  it('answers 404 for a builtin no one has registered', async () => {
    const server = await startApp(app(), { builtins: {} });
    try {
      assert.equal((await raw(server.url, '/svc/health')).status, 404);
      assert.equal((await raw(server.url, '/a')).body, 'a');
    } finally {
      await server.close();
    }
  });

  it('serves a registered builtin through the usual conversion', async () => {
    let setups = 0;
    const server = await startApp(app(), {
      builtins: {
        health: ({ app: built }) => {
          setups++;
          return (ctx) => ({ status: 'ok', routes: built.manifest.routes.length, path: ctx.path });
        },
      },
    });
    try {
      assert.deepEqual(JSON.parse((await raw(server.url, '/svc/health')).body), { status: 'ok', routes: 2, path: '/svc/health' });
      await raw(server.url, '/svc/health');
      assert.equal(setups, 1);
    } finally {
      await server.close();
    }
  });
});

describe('client address and the IP filter hook', () => {
  it('hands the IP filter the client address and the canonical path, and answers 403 on false', async () => {
    const seen: string[] = [];
    const server = await startApp(
      handApp([
        { method: 'GET', pattern: '/admin', handler: () => 'admin' },
        { method: 'GET', pattern: '/open', handler: () => 'open' },
      ]),
      { ipFilter: (ip, path) => (seen.push(`${ip} ${path}`), path !== '/admin') },
    );
    try {
      assert.equal((await raw(server.url, '/%61dmin/')).status, 403);
      assert.equal((await raw(server.url, '/open')).body, 'open');
      assert.deepEqual(seen, ['127.0.0.1 /admin', '127.0.0.1 /open']);
      assert.match((await server.logLines())[0]!, /\[403\] GET \/admin 403 from 127\.0\.0\.1/);
    } finally {
      await server.close();
    }
  });

  it('lets the client address be replaced (trustProxy)', async () => {
    const server = await startApp(handApp([{ method: 'GET', pattern: '/me', handler: whoami }]), {
      clientAddress: (req) => String(req.headers['x-test-client']),
    });
    try {
      assert.deepEqual(JSON.parse((await raw(server.url, '/me', { headers: { 'x-test-client': '10.1.2.3' } })).body), { ip: '10.1.2.3' });
    } finally {
      await server.close();
    }
  });
});

describe('boot', () => {
  it('listens on IPv6 and IPv4 with host `::`, folding IPv4-mapped clients to IPv4', async (t) => {
    const root = await makeProject({});
    let server;
    try {
      server = await boot(handApp([{ method: 'GET', pattern: '/me', handler: whoami }]), { root, host: '::', port: 0 });
    } catch (e) {
      await removeProject(root);
      if ((e as NodeJS.ErrnoException).code === 'EAFNOSUPPORT' || (e as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') return t.skip('no IPv6 here');
      throw e;
    }
    try {
      const { port } = server.address() as AddressInfo;
      assert.deepEqual(JSON.parse((await raw(`http://127.0.0.1:${port}`, '/me')).body), { ip: '127.0.0.1' });
      assert.deepEqual(JSON.parse((await raw(`http://[::1]:${port}`, '/me')).body), { ip: '::1' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await removeProject(root);
    }
  });

  it('defaults host and port to svc.json', async () => {
    const root = await makeProject({});
    const app = handApp([{ method: 'GET', pattern: '/', handler: () => 'home' }], {
      config: { server: { ...DEFAULT_CONFIG.server, host: '127.0.0.1', port: 0, bodyLimit: 1024 } },
    });
    const server = await boot(app, { root });
    try {
      const { address, port } = server.address() as AddressInfo;
      assert.equal(address, '127.0.0.1');
      assert.equal((await raw(`http://127.0.0.1:${port}`, '/')).body, 'home');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await removeProject(root);
    }
  });
});
