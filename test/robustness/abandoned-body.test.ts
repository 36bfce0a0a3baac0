// A request whose body never arrives whole — the client closes or resets the connection,
// stops sending until requestTimeoutMs, or sends a malformed chunk — was abandoned, or
// node answered it on the socket itself. It is no handler failure: no 500 in svc.log,
// no hit in the route's metrics.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';
import { sendThen } from './raw-http.ts';

let server: Running;
before(async () => {
  const app = handApp([{ method: 'POST', pattern: '/upload', handler: function (this: Context) { return { size: this.body.length }; } }], {
    builtins: [{ pattern: '/svc/metrics', name: 'metrics' }],
    config: { server: { ...DEFAULT_CONFIG.server, headersTimeoutMs: 500, requestTimeoutMs: 1000 } },
  });
  server = await startApp(app);
});
after(() => server?.close());

async function uploadHits(): Promise<number> {
  const { body } = await raw(server.url, '/svc/metrics', { headers: { accept: 'application/json' } });
  const { routes } = JSON.parse(body) as { routes: Array<{ path: string; hits: number }> };
  return routes.find((route) => route.path === '/upload')?.hits ?? 0;
}

/** The request stream's 'aborted' reaches the pipeline a moment after the socket closes. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));

/** The svc.log lines: none from the pipeline, and at most node's answer, logged as a client error. */
async function assertNotAHandlerFailure(before: number, answered?: string): Promise<void> {
  await settle();
  const lines = (await server.logLines()).slice(before);
  assert.deepEqual(lines.map((line) => line.replace(/^\[[^\]]+\] /, '').replace(/ \(request .*\)$/, '')), answered === undefined ? [] : [answered]);
  assert.equal(await uploadHits(), 0);
}

const logged = async (): Promise<number> => (await server.logLines()).length;

const partial = 'POST /upload HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc';

describe('a request body that never arrives whole', () => {
  it('the client closes the connection mid-body: nothing to answer or log', async () => {
    const before = await logged();
    assert.equal(await sendThen(server.url, partial, 'end'), '');
    await assertNotAHandlerFailure(before);
  });

  it('the client resets the connection mid-body: nothing to answer or log', async () => {
    const before = await logged();
    assert.equal(await sendThen(server.url, partial, 'reset'), '');
    await assertNotAHandlerFailure(before);
  });

  it('the body stops arriving: 408 after requestTimeoutMs', async () => {
    const before = await logged();
    const answer = await sendThen(server.url, partial, 'wait');
    assert.match(answer, /^HTTP\/1\.1 408 /);
    await assertNotAHandlerFailure(before, '[408] client error ERR_HTTP_REQUEST_TIMEOUT from 127.0.0.1');
  });

  it('a malformed chunk: 400', async () => {
    const before = await logged();
    const answer = await sendThen(server.url, 'POST /upload HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', 'wait');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    await assertNotAHandlerFailure(before, '[400] client error HPE_INVALID_CHUNK_SIZE from 127.0.0.1');
  });
});
