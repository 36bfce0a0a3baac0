// The metrics endpoint through a real build: per-route counts in Prometheus text (read
// back with a real parser of the format) and JSON, persisted across a restart.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { svcServer } from '../support/cli.ts';
import { removeProject } from '../support/project.ts';
import { buildProject, get, serve } from './support.ts';

const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8';

function sample(families: PrometheusFamily[], name: string, method: string, route: string) {
  const family = families.find((f) => f.name === name);
  assert.ok(family, `no ${name} family`);
  return family.metrics.find((m) => m.labels?.method === method && m.labels?.route === route);
}

async function jsonRoutes(url: string): Promise<Array<{ method: string; path: string; hits: number; totalMs: number; avgMs: number }>> {
  const response = await get(`${url}/svc/metrics`, { headers: { accept: 'application/json' } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return (JSON.parse(response.body) as { routes: never[] }).routes;
}

describe('metrics endpoint', () => {
  let root: string;
  before(async () => {
    root = await buildProject();
  });
  after(() => removeProject(root));

  it('counts each route pattern, not raw URLs, never the built-in endpoints, and survives a restart', async () => {
    const first = await serve(root);
    for (const name of ['ann', 'bo', 'cy', 'di', 'ed']) assert.equal((await get(`${first.url}/hello/${name}`)).status, 200);
    assert.equal((await get(`${first.url}/items`, { method: 'POST' })).status, 200);
    assert.equal((await get(`${first.url}/boom`)).status, 500);
    assert.equal((await get(`${first.url}/nowhere`)).status, 404); // no route: nothing to count
    await get(`${first.url}/svc/health`);
    await get(`${first.url}/svc/dashboard`);

    const text = await get(`${first.url}/svc/metrics`);
    assert.equal(text.status, 200);
    assert.equal(text.headers.get('content-type'), PROMETHEUS);
    const families = parsePrometheusTextFormat(text.body);
    assert.deepEqual(
      families.map((f) => [f.name, f.type]),
      [
        ['svc_route_hits_total', 'COUNTER'],
        ['svc_route_duration_seconds', 'SUMMARY'],
      ],
    );
    assert.equal(sample(families, 'svc_route_hits_total', 'GET', '/hello/{name}')?.value, '5');
    assert.equal(sample(families, 'svc_route_hits_total', 'POST', '/items')?.value, '1');
    assert.equal(sample(families, 'svc_route_hits_total', 'GET', '/boom')?.value, '1');
    const duration = sample(families, 'svc_route_duration_seconds', 'GET', '/hello/{name}');
    assert.equal(duration?.count, '5');
    assert.ok(Number(duration?.sum) > 0);
    const routes = families[0]!.metrics.map((m) => m.labels?.route);
    assert.ok(!routes.some((route) => route?.startsWith('/svc/')), `built-in endpoints were counted: ${routes.join(', ')}`);

    const json = await jsonRoutes(first.url);
    const hello = json.find((r) => r.method === 'GET' && r.path === '/hello/{name}');
    assert.equal(hello?.hits, 5);
    assert.ok(hello.totalMs > 0);
    assert.ok(Math.abs(hello.avgMs - hello.totalMs / 5) <= 0.001, `avgMs ${hello.avgMs} against totalMs ${hello.totalMs} / 5`);
    for (const ms of [hello.totalMs, hello.avgMs]) assert.equal(ms, Number(ms.toFixed(3)), 'to the microsecond, without binary noise');
    assert.deepEqual(Object.keys(hello).sort(), ['avgMs', 'hits', 'method', 'path', 'totalMs']);
    assert.ok(!json.some((r) => r.path.startsWith('/svc/')));
    await first.stop();

    const saved = JSON.parse(await readFile(join(root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ path: string; hits: number }> };
    assert.equal(saved.routes.find((r) => r.path === '/hello/{name}')?.hits, 5);

    const second = await serve(root);
    for (const name of ['fay', 'gus', 'hal']) await get(`${second.url}/hello/${name}`);
    const after = await jsonRoutes(second.url);
    assert.equal(after.find((r) => r.path === '/hello/{name}')?.hits, 8);
    assert.equal(after.find((r) => r.path === '/items')?.hits, 1);
    assert.ok(after.find((r) => r.path === '/hello/{name}')!.totalMs > hello.totalMs);
    await second.stop();
  });

  it('reports a corrupt metrics file, starts from zero and replaces it', async () => {
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    await mkdir(join(root, 'shoebox', 'metrics'), { recursive: true });
    await writeFile(file, '{"routes": [{"method": "GET", "path": "/hello/{name}", "hits": "lots"');
    const served = await serve(root);
    const json = await jsonRoutes(served.url);
    assert.ok(json.every((r) => r.hits === 0));
    assert.deepEqual(JSON.parse(await readFile(file, 'utf8')).routes.length, json.length); // replaced at start
    await get(`${served.url}/hello/x`);
    await served.stop();
    const log = await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    assert.match(log, /\[metrics\] .*routes\.json is unreadable \(not JSON/);
    assert.equal(JSON.parse(await readFile(file, 'utf8')).routes.find((r: { path: string }) => r.path === '/hello/{name}').hits, 1);
  });

  it('keeps the readable entries of a file with one damaged entry, and says so', async () => {
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    await mkdir(join(root, 'shoebox', 'metrics'), { recursive: true });
    const routes = [
      { method: 'GET', path: '/hello/{name}', hits: 7, totalMs: 14 },
      { method: 'POST', path: '/items', hits: -3, totalMs: 1 },
    ];
    await writeFile(file, JSON.stringify({ version: 1, routes }));
    await rm(join(root, 'shoebox', 'logs'), { recursive: true, force: true });
    const served = await serve(root);
    const json = await jsonRoutes(served.url);
    await served.stop();
    assert.equal(json.find((r) => r.path === '/hello/{name}')?.hits, 7);
    assert.equal(json.find((r) => r.path === '/items')?.hits, 0);
    const log = await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    assert.match(log, /\[metrics\] .*routes\.json held 1 unreadable route entry; it counts from zero, the others are kept/);
  });

  it('adds up two entries of one route, and a scrape does not count them again', async () => {
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    await mkdir(join(root, 'shoebox', 'metrics'), { recursive: true });
    const routes = [
      { method: 'GET', path: '/hello/{name}', hits: 10, totalMs: 20 },
      { method: 'GET', path: '/hello/{name}', hits: 5, totalMs: 3 },
    ];
    await writeFile(file, JSON.stringify({ version: 1, routes }));
    const served = await serve(root);
    // Each scrape used to add the difference between the two (5) again: 10, 15, 20.
    const scrapes = [];
    for (let i = 0; i < 3; i++) scrapes.push((await jsonRoutes(served.url)).find((r) => r.path === '/hello/{name}')?.hits);
    await get(`${served.url}/hello/x`);
    await served.stop();
    assert.deepEqual(scrapes, [15, 15, 15]);
    const saved = JSON.parse(await readFile(file, 'utf8')) as { routes: Array<{ path: string; hits: number; totalMs: number }> };
    assert.deepEqual(saved.routes.filter((r) => r.path === '/hello/{name}').map((r) => r.hits), [16]);
  });

  it('takes a duration no clock could have summed for damage, not for Infinity', async () => {
    const file = join(root, 'shoebox', 'metrics', 'routes.json');
    await mkdir(join(root, 'shoebox', 'metrics'), { recursive: true });
    await writeFile(file, JSON.stringify({ version: 1, routes: [{ method: 'GET', path: '/hello/{name}', hits: 3, totalMs: 1e308 }] }));
    await rm(join(root, 'shoebox', 'logs'), { recursive: true, force: true });
    const served = await serve(root);
    const json = await jsonRoutes(served.url);
    const text = (await get(`${served.url}/svc/metrics`)).body;
    await served.stop();
    // It was served: `"totalMs": null` in the JSON, `Infinity` in the Prometheus text.
    assert.deepEqual(json.find((r) => r.path === '/hello/{name}'), { method: 'GET', path: '/hello/{name}', hits: 0, totalMs: 0, avgMs: 0 });
    assert.equal(sample(parsePrometheusTextFormat(text), 'svc_route_duration_seconds', 'GET', '/hello/{name}')?.sum, '0');
    const log = await readFile(join(root, 'shoebox', 'logs', 'svc.log'), 'utf8');
    assert.match(log, /\[metrics\] .*routes\.json held 1 unreadable route entry/);
  });

  it('leaves no temporary file behind when the counts cannot be saved', async () => {
    const folder = join(root, 'shoebox', 'metrics');
    await rm(folder, { recursive: true, force: true });
    await mkdir(join(folder, 'routes.json', 'in-the-way'), { recursive: true });
    try {
      const served = await serve(root);
      await get(`${served.url}/items`, { method: 'POST' });
      await served.stop();
      assert.deepEqual(await readdir(folder), ['routes.json']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('recreates shoebox/metrics/ when it is deleted while serving', async () => {
    const served = await serve(root);
    await get(`${served.url}/items`, { method: 'POST' });
    await rm(join(root, 'shoebox'), { recursive: true, force: true });
    await served.stop();
    const saved = JSON.parse(await readFile(join(root, 'shoebox', 'metrics', 'routes.json'), 'utf8')) as { routes: Array<{ path: string; hits: number }> };
    assert.equal(saved.routes.find((r) => r.path === '/items')?.hits, 1);
  });
});

describe('metrics across `svc serve` restarts', () => {
  let root: string;
  before(async () => {
    root = await buildProject();
  });
  after(() => removeProject(root));

  it('keeps exact counts when the server is stopped with SIGTERM and started again', async () => {
    for (const [requests, expected] of [
      [4, 4],
      [3, 7],
    ]) {
      const server = await svcServer(root, ['serve', '--port', '0']);
      for (let i = 0; i < requests!; i++) assert.equal((await get(`${server.url}/hello/n${i}`)).status, 200);
      assert.equal((await jsonRoutes(server.url)).find((r) => r.path === '/hello/{name}')?.hits, expected);
      await server.stop();
      assert.equal(server.child.exitCode, 0, server.output());
    }
  });
});
