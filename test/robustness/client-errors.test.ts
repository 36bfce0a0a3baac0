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
import { exchange, parseResponse, sendThen, type ParsedResponse } from './raw-http.ts';

let server: Running;
before(async () => {
  const app = handApp([
    { method: 'GET', pattern: '/', handler: () => 'home' },
    { method: 'POST', pattern: '/upload', handler: function (this: Context) { return { size: this.body.length }; } },
    { method: 'POST', pattern: '/slow', handler: async function (this: Context) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { stored: this.body.toString() };
    } },
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

  it('a refused first request answers with its body, though a HEAD follows it in the same packet', async () => {
    // The refused request is looked for before where the parser failed, never after it.
    await refused('get / HTTP/1.1\r\nhost: a\r\n\r\nHEAD / HTTP/1.1\r\nhost: a\r\n', 400, 'HPE_INVALID_METHOD');
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

  it('a request target that alone overruns the 16 KiB: 414, as any target over server.maxUrlLength; to HEAD without a body', async () => {
    const long = `/${'a'.repeat(20_000)} HTTP/1.1\r\nhost: a\r\n\r\n`;
    const problem = await refused(`GET ${long}`, 414, 'HPE_HEADER_OVERFLOW');
    assert.equal(problem.detail, `The request target is longer than ${DEFAULT_CONFIG.server.maxUrlLength} characters.`);
    const { response } = await exchange(server.url, `HEAD ${long}`, { head: true });
    assert.equal(response.status, 414);
    assert.equal(response.body.length, 0);
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

/** The three responses to `requests`, written at once; the first two keep the connection open. */
async function threeAnswers(requests: string): Promise<ParsedResponse[]> {
  const answer = Buffer.from(await sendThen(server.url, requests, 'wait'), 'latin1');
  const first = answer.indexOf('HTTP/1.1 ', 1, 'latin1');
  const second = answer.indexOf('HTTP/1.1 ', first + 1, 'latin1');
  assert.ok(first > 0 && second > first, answer.toString('latin1'));
  // parseResponse reads one response each.
  return [answer.subarray(0, first), answer.subarray(first, second), answer.subarray(second)].map((raw) => parseResponse(raw, false));
}

describe('a request node refuses, pipelined behind requests still being handled', () => {
  it('is answered after their responses, which go out whole', async () => {
    const before = (await server.logLines()).length;
    const slow = 'POST /slow HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\n\r\n';
    const [n1, n2, refusal] = await threeAnswers(`${slow}n1${slow}n2get / HTTP/1.1\r\nhost: a\r\n\r\n`);
    assert.deepEqual(JSON.parse(n1!.body.toString()), { stored: 'n1' });
    assert.deepEqual(JSON.parse(n2!.body.toString()), { stored: 'n2' });
    const problem = problemOf(refusal!, 400);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = (await server.logLines()).slice(before);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, new RegExp(`\\[400\\] client error HPE_INVALID_METHOD from 127\\.0\\.0\\.1 \\(request ${problem.requestId}\\)$`));
  });

  it('a target that alone overruns the 16 KiB, behind a request with a body: 414, as on its own, not 431', async () => {
    const slow = 'POST /slow HTTP/1.1\r\nhost: a\r\ncontent-length: 2\r\n\r\n';
    const long = `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nhost: a\r\n\r\n`;
    const [home, n1, refusal] = await threeAnswers(`GET / HTTP/1.1\r\nhost: a\r\n\r\n${slow}n1${long}`);
    assert.equal(home!.body.toString(), 'home');
    assert.deepEqual(JSON.parse(n1!.body.toString()), { stored: 'n1' });
    problemOf(refusal!, 414);
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

describe('a request with two Host header fields', () => {
  it('gets 400 problem+json and its log line (RFC 9112 §3.2), whatever its version', async () => {
    for (const version of ['1.1', '1.0']) {
      const before = (await server.logLines()).length;
      const { response } = await exchange(server.url, `GET / HTTP/${version}\r\nhost: a\r\nHost: b\r\n\r\n`);
      const problem = problemOf(response, 400);
      assert.equal(problem.detail, 'A request must not have more than one Host header field.');
      assert.match(await logLine(before), new RegExp(`\\] \\[400\\] GET / 400 from 127\\.0\\.0\\.1 \\(request ${problem.requestId}\\)$`));
    }
  });
});

describe('a request whose Host is no host', () => {
  it('gets 400 problem+json and its log line (RFC 9112 §3.2); a name, an address, a port or nothing is served', async () => {
    for (const host of ['a b', 'x/y', 'user@x', '[::1', 'x:abc', '"x"']) {
      const before = (await server.logLines()).length;
      const { response } = await exchange(server.url, `GET / HTTP/1.1\r\nhost: ${host}\r\n\r\n`);
      const problem = problemOf(response, 400);
      assert.equal(problem.detail, 'The Host header field must be a host name or address, and a port if any.', host);
      assert.match(await logLine(before), /\[400\] GET \/ 400 from 127\.0\.0\.1/);
    }
    for (const host of ['example.com', 'EXAMPLE.com:8080', '127.0.0.1:80', '[::1]:6916', '[2001:db8::1]', 'xn--bcher-kva.example', '']) {
      const { response } = await exchange(server.url, `GET / HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
      assert.equal(response.status, 200, host);
    }
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
