// SPEC §4 error responses and SPEC §7 log lines.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { abort, HttpError } from '../../runtime/errors/http-error.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';

const app = () =>
  handApp([
    {
      method: 'GET',
      pattern: '/boom',
      handler: () => {
        throw new Error('secret database password in message');
      },
    },
    { method: 'GET', pattern: '/async-boom', handler: async () => Promise.reject(new TypeError('async secret')) },
    { method: 'GET', pattern: '/bigint', handler: () => ({ n: 1n }) },
    { method: 'GET', pattern: '/ok', handler: () => 'still here' },
    { method: 'GET', pattern: '/forbidden', handler: () => abort(403, 'Admins only') },
    { method: 'GET', pattern: '/limited', handler: () => { throw new HttpError(429, 'Slow down', { 'Retry-After': 30 }); } },
    { method: 'GET', pattern: '/bare', handler: () => abort(401) },
    { method: 'GET', pattern: '/unavailable', handler: () => abort(503, 'Back at 5 pm') },
    { method: 'GET', pattern: '/deliberate-500', handler: () => abort(500, 'secret in a deliberate 500') },
    { method: 'GET', pattern: '/bad-header', handler: function (this: Context) { this.header('x-split', 'a\r\nb'); return 'never'; } },
  ]);

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('errors', () => {
  let server: Running;
  before(async () => {
    server = await startApp(app(), { files: { 'weave/Views/errors/404.hbs': '<p>custom {{status}}: {{title}} — {{detail}}</p>' } });
  });
  after(() => server.close());

  it('turns a thrown error into a 500 that hides the message, and keeps serving', async () => {
    for (const path of ['/boom', '/async-boom', '/bigint']) {
      const res = await raw(server.url, path);
      assert.equal(res.status, 500, path);
      assert.equal(res.headers['content-type'], 'application/problem+json');
      const problem = JSON.parse(res.body);
      assert.equal(problem.title, 'Internal Server Error');
      assert.equal(problem.detail, 'The server could not handle the request.');
      assert.doesNotMatch(res.body, /secret|at |\.ts/);
      assert.equal((await raw(server.url, '/ok')).body, 'still here');
    }
  });

  it('answers 500 for a header node refuses to send, and keeps serving', async () => {
    const res = await raw(server.url, '/bad-header');
    assert.equal(res.status, 500);
    assert.equal((await fetch(`${server.url}/bad-header`)).statusText, 'Internal Server Error');
    assert.equal(res.headers['x-split'], undefined);
    assert.equal((await raw(server.url, '/ok')).body, 'still here');
  });

  it('hides a 500 in the HTML page as well', async () => {
    const res = await raw(server.url, '/boom', { headers: HTML });
    assert.equal(res.status, 500);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(res.body, /Internal Server Error/);
    assert.doesNotMatch(res.body, /secret|<pre>/);
  });

  it('keeps the status, detail and headers of HttpError and abort()', async () => {
    const forbidden = await raw(server.url, '/forbidden');
    assert.equal(forbidden.status, 403);
    assert.deepEqual(
      { ...JSON.parse(forbidden.body), requestId: undefined },
      { type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Admins only', requestId: undefined },
    );
    const limited = await raw(server.url, '/limited');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '30');
    assert.equal(JSON.parse((await raw(server.url, '/bare')).body).detail, 'Unauthorized');
    // Written for the client, as Laravel's abort() and Hono's HTTPException show it; but a 500 never shows its message (SPEC §4).
    const unavailable = await raw(server.url, '/unavailable');
    assert.equal(unavailable.status, 503);
    assert.equal(JSON.parse(unavailable.body).detail, 'Back at 5 pm');
    const deliberate = await raw(server.url, '/deliberate-500');
    assert.equal(deliberate.status, 500);
    assert.equal(JSON.parse(deliberate.body).detail, 'The server could not handle the request.');
  });

  it('renders HTML pages when Accept includes text/html, problem+json otherwise', async () => {
    const page = await raw(server.url, '/forbidden', { headers: HTML });
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.body, /^<!doctype html>/);
    assert.match(page.body, /403/);
    assert.match(page.body, /Admins only/);
    const json = await raw(server.url, '/forbidden', { headers: { accept: 'application/json' } });
    assert.equal(json.headers['content-type'], 'application/problem+json');
    // Media types are case-insensitive (RFC 9110 §8.3.1).
    const shouted = await raw(server.url, '/forbidden', { headers: { accept: 'TEXT/HTML' } });
    assert.equal(shouted.headers['content-type'], 'text/html; charset=utf-8');
    // A cache must not hand one client the form another asked for (RFC 9110 §12.5.5).
    for (const res of [page, json, await raw(server.url, '/no-such-path')]) assert.equal(res.headers['vary'], 'accept');
  });

  it('uses weave/Views/errors/<status>.hbs over the default page, escaping its values', async () => {
    const res = await raw(server.url, '/<script>', { headers: HTML });
    assert.equal(res.status, 404);
    assert.equal(res.body, '<p>custom 404: Not Found — No route for GET /&lt;script&gt;.</p>');
  });

  it('answers HEAD errors with headers only', async () => {
    const res = await raw(server.url, '/boom', { method: 'HEAD' });
    assert.equal(res.status, 500);
    assert.equal(res.body, '');
    assert.ok(Number(res.headers['content-length']) > 0);
  });

  it("gives a HEAD error the Content-Length of GET's, though its text names the method (RFC 9110 §8.6)", async () => {
    for (const [path, accept] of [['/no-such-path', 'application/json'], ['/no-such-path', HTML.accept], ['/ok/../ok', 'application/json']] as const) {
      const get = await raw(server.url, path, { headers: { accept } });
      const head = await raw(server.url, path, { method: 'HEAD', headers: { accept } });
      assert.equal(head.status, get.status);
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(get.body)), `${path} ${accept}`);
    }
    const post = await raw(server.url, '/ok', { method: 'POST', headers: { 'content-length': '0' } });
    assert.equal(post.status, 405);
    assert.equal(JSON.parse(post.body).detail, 'POST is not allowed on /ok; allowed: GET, HEAD, OPTIONS.');
  });

  it('logs every 4xx/5xx as `[ISO time] [status] message` with method, path, address and request id', async () => {
    const before = (await server.logLines()).length;
    const failed = await raw(server.url, '/boom');
    await raw(server.url, '/missing');
    await raw(server.url, '/ok');
    const lines = (await server.logLines()).slice(before);
    assert.equal(lines.length, 2);
    const id = JSON.parse(failed.body).requestId as string;
    assert.match(lines[0]!, /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[500\] GET \/boom 500 from 127\.0\.0\.1 \(request [0-9a-f-]{36}\): Error: secret database password in message /);
    assert.ok(lines[0]!.includes(id));
    assert.match(lines[0]!, /"route":"routes\/test\.ts:1:3"/);
    assert.match(lines[0]!, /"stack":"Error: secret/);
    assert.match(lines[1]!, /\] \[404\] GET \/missing 404 from 127\.0\.0\.1 \(request /);
  });

  it('writes a path with control characters escaped, on one line', async () => {
    const before = (await server.logLines()).length;
    await raw(server.url, '/x%1B%5B2J%07%00%0Ay%E2%80%A8z%C2%85w%09v');
    const lines = (await server.logLines()).slice(before);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /\] \[404\] GET \/x\\u001b\[2J\\u0007\\u0000 y z w\tv 404 from /);
  });
});

describe('errors under svc tread (dev)', () => {
  let server: Running;
  before(async () => {
    server = await startApp(app(), { dev: true });
  });
  after(() => server.close());

  it('shows the message and stack of a 500', async (t) => {
    t.mock.method(console, 'error', () => {}); // dev also prints the error to the terminal
    const json = JSON.parse((await raw(server.url, '/boom')).body);
    assert.equal(json.detail, 'secret database password in message');
    assert.ok(Array.isArray(json.stack) && json.stack[0].startsWith('Error: secret'));
    const page = await raw(server.url, '/boom', { headers: HTML });
    assert.match(page.body, /secret database password in message/);
    assert.match(page.body, /<pre>Error: secret/);
  });

  it('uses the default page shipped in shoebox/views when the app has none', async () => {
    const page = await raw(server.url, '/missing', { headers: HTML });
    assert.match(page.body, /<title>404 Not Found<\/title>/);
  });
});

describe('shoebox on demand', () => {
  it('recreates shoebox/logs when it is deleted while serving', async () => {
    const server = await startApp(app());
    try {
      await raw(server.url, '/missing');
      assert.equal((await server.logLines()).length, 1);
      await rm(join(server.root, 'shoebox'), { recursive: true });
      await raw(server.url, '/missing');
      assert.equal((await server.logLines()).length, 1);
      assert.ok(existsSync(join(server.root, 'shoebox', 'logs', 'svc.log')));
    } finally {
      await server.close();
    }
  });

  it('serves the page a custom page overrides when it fails to render, and logs the failure once', async (t) => {
    const stderr = t.mock.method(process.stderr, 'write', () => true);
    const server = await startApp(app(), {
      files: { 'weave/Views/errors/403.hbs': '{{nosuchhelper status}}', 'weave/Views/errors/404.hbs': '{{> nosuchpartial}}' },
    });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await raw(server.url, '/forbidden', { headers: HTML });
        assert.equal(res.status, 403);
        // svc's own page (shoebox/views/error.hbs), not the bare last resort.
        assert.match(res.body, /<title>403 Forbidden<\/title>/);
        assert.match(res.body, /<p class="status">403<\/p>/);
        assert.match(res.body, /Admins only/);
      }
      assert.match((await raw(server.url, '/nowhere', { headers: HTML })).body, /<title>404 Not Found<\/title>/);
      const failures = (await server.logLines()).filter((line) => line.includes('[error-page]'));
      assert.equal(failures.length, 2);
      assert.match(failures[0]!, /\[error-page\] The error page weave\/Views\/errors\/403\.hbs failed to render \(Missing helper: "nosuchhelper"\); the page it overrides is served/);
      assert.match(failures[1]!, /weave\/Views\/errors\/404\.hbs failed to render \(.*nosuchpartial.*\)/);
      assert.equal(stderr.mock.callCount(), 2);
    } finally {
      await server.close();
    }
  });

  it('serves the next page in line: an app-wide error.hbs before svc\'s own', async (t) => {
    t.mock.method(process.stderr, 'write', () => true);
    const server = await startApp(app(), {
      files: { 'weave/Views/errors/403.hbs': '{{nosuchhelper status}}', 'shoebox/views/error.hbs': 'catch-all {{status}}' },
    });
    try {
      assert.equal((await raw(server.url, '/forbidden', { headers: HTML })).body, 'catch-all 403');
    } finally {
      await server.close();
    }
  });

  it('prefers a page for the status in any folder over an app-wide error.hbs', async () => {
    const server = await startApp(app(), {
      files: { 'weave/Views/errors/error.hbs': 'catch-all {{status}}', 'shoebox/views/403.hbs': 'forbidden page' },
    });
    try {
      assert.equal((await raw(server.url, '/forbidden', { headers: HTML })).body, 'forbidden page');
      assert.equal((await raw(server.url, '/nowhere', { headers: HTML })).body, 'catch-all 404');
    } finally {
      await server.close();
    }
  });

  it('reads error pages once, at start-up', async () => {
    const server = await startApp(app(), { files: { 'weave/Views/errors/error.hbs': 'first {{status}}' } });
    try {
      await writeFile(join(server.root, 'weave', 'Views', 'errors', 'error.hbs'), 'second {{status}}');
      assert.equal((await raw(server.url, '/forbidden', { headers: HTML })).body, 'first 403');
    } finally {
      await server.close();
    }
  });
});
