// The docs endpoint through a real build: Swagger UI from shoebox/outsole/docs/, the
// build's OpenAPI document, caching headers, and nothing outside the folder.
import assert from 'node:assert/strict';
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { raw } from '../support/server.ts';
import { removeProject } from '../support/project.ts';
import { appFiles, assetUrls, assetUrlsRoute, buildProject, get, serve, svcOk, type Served } from './support.ts';

describe('docs endpoint', () => {
  let root: string;
  let served: Served;
  before(async () => {
    root = await buildProject(undefined, {
      ...appFiles,
      'routes/assets.ts': assetUrlsRoute({ css: 'docs/swagger-ui.css', spec: 'openapi.json' }),
      'shoebox/outsole/secret.txt': 'not for the docs mount',
    });
    served = await serve(root);
  });
  after(async () => {
    await served.stop();
    await removeProject(root);
  });

  it('serves a Swagger UI page that loads only local files', async () => {
    const page = await get(`${served.url}/svc/docs`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(page.body, /<script src="\/svc\/docs\/swagger-ui-bundle\.js"><\/script>/);
    assert.match(page.body, /<link rel="stylesheet" href="\/svc\/docs\/swagger-ui\.css">/);
    assert.match(page.body, /"specUrl":"\/svc\/docs\/openapi\.json"/);
    assert.doesNotMatch(page.body, /(src|href)="(https?:)?\/\//, 'no asset from another host');
  });

  it('serves the build’s OpenAPI document', async () => {
    const spec = await get(`${served.url}/svc/docs/openapi.json`);
    assert.equal(spec.status, 200);
    assert.equal(spec.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.match(spec.headers.get('cache-control') ?? '', /no-cache/);
    assert.equal(spec.body, await readFile(join(root, '.svc', 'openapi.json'), 'utf8'));
    assert.ok((JSON.parse(spec.body) as { paths: Record<string, unknown> }).paths['/hello/{name}']);
  });

  it('serves the Swagger UI files with their content types and caching headers, 304 when unchanged', async () => {
    const expected: Array<[string, string]> = [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
      ['oauth2-redirect.html', 'text/html; charset=utf-8'],
    ];
    for (const [name, type] of expected) {
      const response = await fetch(`${served.url}/svc/docs/${name}`);
      const body = Buffer.from(await response.arrayBuffer());
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), type, name);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=3600', name);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(body.equals(await readFile(join(root, 'shoebox', 'outsole', 'docs', name))), name);
      const etag = response.headers.get('etag');
      assert.ok(etag, name);
      const again = await fetch(`${served.url}/svc/docs/${name}`, { headers: { 'if-none-match': etag } });
      assert.equal(again.status, 304, name);
      assert.equal((await again.arrayBuffer()).byteLength, 0);
    }
  });

  it('refuses anything but a plain file name in the folder', async () => {
    const attempts = [
      '/svc/docs/..%2F..%2Fsvc.json',
      '/svc/docs/%2E%2E%2Fsecret.txt',
      '/svc/docs/..%2Fsecret.txt',
      '/svc/docs/..%5Csecret.txt',
      '/svc/docs/%2e%2e',
      '/svc/docs/.gitignore',
      '/svc/docs/secret.txt',
      '/svc/docs/swagger-ui.css%00.png',
      '/svc/docs/nope.js',
      '/svc/docs/swagger-ui.css/x',
      '/svc/docs/../outsole/secret.txt',
    ];
    for (const target of attempts) {
      const response = await raw(served.url, target);
      assert.ok(response.status === 404 || response.status === 400, `${target} answered ${response.status}`);
      assert.doesNotMatch(response.body, /not for the docs mount|"endpoints"/, target);
    }
  });

  it('shoeAsset() gives the URLs the docs mount serves', async () => {
    const urls = await assetUrls(served);
    assert.deepEqual(urls, { css: '/svc/docs/swagger-ui.css', spec: '/svc/docs/openapi.json' });
    assert.equal((await get(`${served.url}${urls.css}`)).status, 200);
    assert.equal((await get(`${served.url}${urls.spec}`)).status, 200);
  });

  it('serves the document of the build it runs, not one a later `svc build` wrote', async () => {
    const file = join(root, '.svc', 'openapi.json');
    const running = await readFile(file, 'utf8');
    await writeFile(file, '{"openapi":"3.1.0","paths":{}}');
    try {
      assert.equal((await get(`${served.url}/svc/docs/openapi.json`)).body, running);
    } finally {
      await writeFile(file, running);
    }
  });

  it('serves Swagger UI from swagger-ui-dist when the shoebox has no copy (a deploy of .svc/ alone)', async () => {
    await rm(join(root, 'shoebox', 'outsole', 'docs'), { recursive: true, force: true });
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css']) assert.equal((await get(`${served.url}/svc/docs/${name}`)).status, 200, name);
    assert.equal((await get(`${served.url}/svc/docs/index.html`)).status, 404, 'only the files svc copies, not the whole package');
  });

  it('`svc route docs` writes the document and the Swagger UI files again', async () => {
    await rm(join(root, 'shoebox', 'outsole'), { recursive: true, force: true });
    svcOk(root, 'route', 'docs');
    await access(join(root, 'shoebox', 'outsole', 'openapi.json'));
    for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE']) {
      await access(join(root, 'shoebox', 'outsole', 'docs', name));
    }
  });
});
