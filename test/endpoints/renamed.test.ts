// Endpoint paths from svc.json: the new paths serve, the default ones are gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { removeProject } from '../support/project.ts';
import { appFiles, assetUrls, assetUrlsRoute, buildProject, get, serve, type Served } from './support.ts';

describe('renamed endpoints', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject(
      { endpoints: { docs: 'reference', health: 'ops/healthz', dashboard: 'ops/board', metrics: '_/prom' } },
      { ...appFiles, 'routes/assets.ts': assetUrlsRoute({ css: 'docs/swagger-ui.css', spec: 'openapi.json' }) },
    );
    served = await serve(root);
  });
  after(async () => {
    await served.stop();
    await removeProject(root);
  });

  it('serves the configured paths and 404s the defaults', async () => {
    for (const path of ['/svc/docs', '/svc/docs/swagger-ui.css', '/svc/health', '/svc/dashboard', '/svc/metrics']) {
      assert.equal((await get(`${served.url}${path}`)).status, 404, path);
    }
    const docs = await get(`${served.url}/reference`);
    assert.equal(docs.status, 200);
    assert.match(docs.body, /src="\/reference\/swagger-ui-bundle\.js"/);
    assert.match(docs.body, /"specUrl":"\/reference\/openapi\.json"/);
    assert.equal((await get(`${served.url}/reference/swagger-ui-bundle.js`)).status, 200);
    assert.equal((await get(`${served.url}/reference/openapi.json`)).status, 200);
    assert.equal((JSON.parse((await get(`${served.url}/ops/healthz`)).body) as { status: string }).status, 'ok');
    assert.match((await get(`${served.url}/_/prom`)).body, /^# HELP svc_route_hits_total/);
    const board = (await get(`${served.url}/ops/board`)).body;
    for (const href of ['/reference', '/ops/healthz', '/_/prom', '/ops/board?page&#x3D;guide']) assert.ok(board.includes(`href="${href}"`), href);
  });

  it('shoeAsset() gives the moved docs URLs, also to a module that calls it as it loads', async () => {
    assert.deepEqual(await assetUrls(served), { css: '/reference/swagger-ui.css', spec: '/reference/openapi.json' });
  });
});
