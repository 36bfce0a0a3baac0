// What node's HTTP parser refuses before the pipeline sees a request is answered as svc
// answers any error (SPEC §4, §7): one well-formed response, problem+json, one line in
// svc.log with a request id; and never a second answer on a connection whose request was
// answered already.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { DEFAULT_CONFIG } from '../../runtime/config.ts';
import { handApp } from '../support/hand-app.ts';
import { startApp, type Running } from '../support/server.ts';
import { exchange, type ParsedResponse } from './raw-http.ts';

let server: Running;
before(async () => {
  const app = handApp([
    { method: 'GET', pattern: '/', handler: () => 'home' },
    { method: 'POST', pattern: '/upload', handler: function (this: Context) { return { size: this.body.length }; } },
  ], {
    config: { server: { ...DEFAULT_CONFIG.server, headersTimeoutMs: 500, requestTimeoutMs: 1000 } },
  });
  server = await startApp(app);
});
after(() => server?.close());

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  requestId: string;
}

function problemOf(response: ParsedResponse, status: number): Problem {
  assert.equal(response.status, status);
  assert.equal(response.headers['content-type'], 'application/problem+json');
  assert.equal(response.headers.connection, 'close');
  const problem = JSON.parse(response.body.toString('utf8')) as Problem;
  assert.equal(problem.status, status);
  assert.equal(problem.type, 'about:blank');
  assert.equal(typeof problem.title, 'string');
  assert.ok(problem.detail.length > 0);
  return problem;
}

async function refused(request: string, status: number, code: string): Promise<Problem> {
  const before = (await server.logLines()).length;
  const { response } = await exchange(server.url, request);
  const problem = problemOf(response, status);
  const line = await logLine(before);
  assert.match(line, new RegExp(`^\\[[^\\]]+\\] \\[${status}\\] client error ${code} from 127\\.0\\.0\\.1 \\(request ${problem.requestId}\\)$`));
  return problem;
}

/** The one svc.log line written since `before` lines were there. */
async function logLine(before: number): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  const lines = (await server.logLines()).slice(before);
  assert.equal(lines.length, 1, lines.join('\n'));
  return lines[0]!;
}

describe("requests node's parser refuses", () => {
  it('a lower-case method: 400', async () => {
    const problem = await refused('get / HTTP/1.1\r\nhost: a\r\n\r\n', 400, 'HPE_INVALID_METHOD');
    assert.match(problem.detail, /^The request is not valid HTTP\/1\.1: /);
  });

  it('header fields over 16 KiB: 431; to HEAD without a body', async () => {
    const big = `/ HTTP/1.1\r\nhost: a\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`;
    await refused(`GET ${big}`, 431, 'HPE_HEADER_OVERFLOW');
    const before = (await server.logLines()).length;
    const { response } = await exchange(server.url, `HEAD ${big}`, { head: true });
    assert.equal(response.status, 431);
    assert.equal(response.headers['content-type'], 'application/problem+json');
    assert.match(await logLine(before), /\] \[431\] client error HPE_HEADER_OVERFLOW from /);
  });

  it('Content-Length with Transfer-Encoding: 400', async () => {
    await refused('POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 3\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'HPE_INVALID_TRANSFER_ENCODING');
  });

  it('headers not finished within headersTimeoutMs: 408', async () => {
    await refused('GET / HTTP/1.1\r\nhost: a\r\n', 408, 'ERR_HTTP_REQUEST_TIMEOUT');
  });

  it('a body not finished within requestTimeoutMs: 408, once', async () => {
    await refused('POST /upload HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc', 408, 'ERR_HTTP_REQUEST_TIMEOUT');
  });

  it('a malformed chunk while the body is read: 400, once', async () => {
    await refused('POST /upload HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', 400, 'HPE_INVALID_CHUNK_SIZE');
  });

  it('chunk extensions over 16 KiB while the body is read: 413, once', async () => {
    await refused(`POST /upload HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n1;x=${'e'.repeat(20_000)}\r\n`, 413, 'HPE_CHUNK_EXTENSIONS_OVERFLOW');
  });

  it('a malformed body after its request was answered gets no second answer', async () => {
    const before = (await server.logLines()).length;
    const { response } = await exchange(server.url, 'POST /nope HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\n', { later: 'zz\r\n' });
    assert.equal(response.status, 404);
    assert.match(await logLine(before), /\] \[404\] POST \/nope 404 from /);
  });
});

describe('an HTTP/1.1 request without Host', () => {
  it('gets 400 problem+json from the pipeline, and its log line; HTTP/1.0 needs none', async () => {
    const before = (await server.logLines()).length;
    const { response } = await exchange(server.url, 'GET / HTTP/1.1\r\n\r\n');
    const problem = problemOf(response, 400);
    assert.equal(problem.detail, 'An HTTP/1.1 request must have a Host header field.');
    assert.match(await logLine(before), new RegExp(`\\] \\[400\\] GET / 400 from 127\\.0\\.0\\.1 \\(request ${problem.requestId}\\)$`));
    const { response: old } = await exchange(server.url, 'GET / HTTP/1.0\r\n\r\n');
    assert.equal(old.body.toString(), 'home', 'HTTP/1.0 has no Host');
  });
});

describe('a request node refuses, from an address the IP rules deny', () => {
  it('gets their 403, as a request that parses would', async () => {
    const denied = await startApp(handApp([{ method: 'GET', pattern: '/', handler: () => 'home' }]), { ipFilter: () => false });
    try {
      const { response } = await exchange(denied.url, 'get / HTTP/1.1\r\nhost: a\r\n\r\n');
      const problem = problemOf(response, 403);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.match((await denied.logLines()).at(-1)!, new RegExp(`\\[403\\] client error HPE_INVALID_METHOD from 127\\.0\\.0\\.1 \\(request ${problem.requestId}\\)$`));
    } finally {
      await denied.close();
    }
  });
});
