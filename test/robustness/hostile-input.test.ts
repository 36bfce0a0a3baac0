// Issue 8: whatever bytes a client sends, `svc serve` answers with one well-formed
// response that is never a 5xx, and keeps serving. Node's own parser may refuse a
// request (400, 431) before svc sees it; that is a well-formed answer too. The
// generators lean towards requests node accepts (about half reach svc's pipeline), each
// with hostile parts: escapes, dot segments, huge or countless segments, odd methods and fields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { exchange, trickleHeaders, type ParsedResponse } from './raw-http.ts';
import { serveApp, type Served } from './support.ts';

const MAX_URL = 15_000;

let app: Served;
before(async () => {
  app = await serveApp({ maxUrlLength: MAX_URL, headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 500 });
});
after(() => app?.close());

interface Hostile {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  framing: { headers: Array<[string, string]>; body: string };
}

/** Strings are latin1: one character, one byte on the wire. */
function serialise({ method, target, headers, framing }: Hostile): Buffer {
  const fields = [['host', '127.0.0.1'], ...headers, ...framing.headers, ['connection', 'close']];
  const head = `${method} ${target} HTTP/1.1\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return Buffer.from(head + framing.body, 'latin1');
}

/** Bytes that cannot end a line (a CR or LF would start a second request on the same socket). */
const byteString = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 255 }).filter((b) => b !== 10 && b !== 13), { maxLength }).map((bytes) => String.fromCharCode(...bytes));

/** Printable ASCII without the space: what a request line may carry. */
const printable = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0x21, max: 0x7e }), { maxLength }).map((codes) => String.fromCharCode(...codes));

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('users', 'hello', 'files', 'sorted', 'asc', 'desc', 'echo', 'admin', 'panel', 'slow', 'svc', 'docs', 'metrics', 'dashboard') },
  { weight: 4, arbitrary: fc.constantFrom('1', '-1', '1e400', 'NaN', '0x10', '', '.', '..', '%2e%2e', '%2E.', '.%2e', '%2F', '%2f', '%25', '%252F', '%00', '%', '%G0', '%E0%A4%A', '%C0%AF', '%FF', '%ED%A0%80', '%F0%9F%98%80', '%61dmin', '%5C', '\\', '~', ';x=1') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: printable(8) },
  { weight: 1, arbitrary: byteString(6) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 17_000 }).map((n) => 'a'.repeat(n)) },
);

const pathTarget = fc
  .tuple(fc.array(segment, { maxLength: 10 }), fc.boolean(), fc.option(printable(20), { freq: 3 }), fc.option(printable(8), { freq: 8 }))
  .map(([segments, slash, query, fragment]) => `/${segments.join('/')}${slash ? '/' : ''}${query === null ? '' : `?${query}`}${fragment === null ? '' : `#${fragment}`}`);

const target = fc.oneof(
  { weight: 8, arbitrary: pathTarget },
  { weight: 1, arbitrary: fc.constantFrom('*', '', 'users', 'http://127.0.0.1/users/1', '//users//1', '/users/1?a=%ZZ', '/' + '/a/..'.repeat(2500), '/'.repeat(10_000), '/.'.repeat(7000), '/a'.repeat(10_000), '/%2e%2e'.repeat(2000)) },
);

const method = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'SEARCH', 'LINK', 'get') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z!#$%&'*+.^_`|~-]{1,12}$/) },
  { weight: 1, arbitrary: byteString(10) },
);

/** What a header value may carry: visible ASCII, spaces, tabs and obs-text bytes. */
const fieldValue = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })), { maxLength }).map((codes) => String.fromCharCode(...codes));

const header: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(
    fc.constantFrom('accept', 'content-type', 'x-forwarded-for', 'cookie', 'authorization', 'expect', 'host', 'range', 'if-none-match', 'cache-control', 'upgrade', 'te', 'accept-encoding'),
    fc.oneof(fc.constantFrom('text/html', 'application/json', '*/*', 'application/problem+json', '100-continue', 'websocket', 'no-store', 'Bearer x', '::ffff:10.9.8.7', '10.9.8.7'), fieldValue(40)),
  ) },
  { weight: 3, arbitrary: fc.tuple(fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/), fieldValue(40)) },
  { weight: 1, arbitrary: fc.tuple(byteString(12), byteString(12)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('x-big'), fc.integer({ min: 1000, max: 20_000 }).map((n) => 'b'.repeat(n))) },
);

const framing: fc.Arbitrary<Hostile['framing']> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Hostile['framing']>({ headers: [], body: '' }) },
  byteString(2000).map((body) => ({ headers: [['content-length', String(body.length)]] as Array<[string, string]>, body })),
  byteString(500).map((body) => ({ headers: [['transfer-encoding', 'chunked']] as Array<[string, string]>, body: `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` })),
  fc.constantFrom<Hostile['framing']>(
    { headers: [['transfer-encoding', 'chunked']], body: 'zz\r\nhello\r\n0\r\n\r\n' },
    { headers: [['content-length', '5'], ['transfer-encoding', 'chunked']], body: '0\r\n\r\n' },
    { headers: [['content-length', 'abc']], body: '' },
    { headers: [['content-length', '-1']], body: '' },
    { headers: [['content-length', '1, 2']], body: '' },
    { headers: [['content-length', '3'], ['content-length', '4']], body: 'abcd' },
    { headers: [['content-length', '999999999999']], body: '' },
    { headers: [['transfer-encoding', 'gzip, chunked']], body: '0\r\n\r\n' },
  ),
);

const hostile: fc.Arbitrary<Hostile> = fc.record({ method, target, headers: fc.array(header, { maxLength: 4 }), framing });

function assertWellFormed(request: Hostile, response: ParsedResponse): void {
  const coded = [...request.headers, ...request.framing.headers].some(([name, value]) => name === 'transfer-encoding' && value !== 'chunked');
  assert.ok(response.status < 500 || (coded && response.status === 501), `got ${response.status}`);
  const type = response.headers['content-type'];
  if (response.status >= 400 && type === 'application/problem+json' && request.method !== 'HEAD') {
    const problem = JSON.parse(response.body.toString('utf8')) as { status: number; title: string };
    assert.equal(problem.status, response.status);
    assert.equal(typeof problem.title, 'string');
  }
}

async function send(request: Hostile): Promise<ParsedResponse> {
  const { response } = await exchange(app.svc.url, serialise(request), { head: request.method === 'HEAD' });
  assertWellFormed(request, response);
  return response;
}

describe('hostile input', () => {
  it('answers every request target, method, header and framing with one well-formed response, never a 5xx but 501 for a transfer coding other than chunked', async () => {
    await fc.assert(fc.asyncProperty(hostile, async (request) => void (await send(request))), { numRuns: 400 });
    assert.equal(app.svc.child.exitCode, null, 'the server process is still running');
    assert.equal((await send({ method: 'GET', target: '/users/7', headers: [], framing: { headers: [], body: '' } })).status, 200);
  });

  it('walks 10,000 segments and resolves dot segments to a canonical path', async () => {
    const get = (target: string) => send({ method: 'GET', target, headers: [], framing: { headers: [], body: '' } });
    assert.equal((await get(`${'/a/..'.repeat(2000)}/users/1`)).status, 200);
    assert.equal((await get(`${'/'.repeat(10_000)}users/1`)).status, 200);
    assert.equal((await get('/.'.repeat(7000))).status, 200); // resolves to `/`
  });

  it('answers a target longer than server.maxUrlLength with 414 problem+json', async () => {
    const long = `/files/${'x'.repeat(MAX_URL - '/files/'.length)}`;
    const fits = await send({ method: 'GET', target: long, headers: [], framing: { headers: [], body: '' } });
    assert.equal(fits.status, 200);
    const tooLong = await send({ method: 'GET', target: `${long}y`, headers: [], framing: { headers: [], body: '' } });
    assert.equal(tooLong.status, 414);
    assert.equal(tooLong.headers['content-type'], 'application/problem+json');
  });

  it("answers header blocks over node's 16 KiB, which node's parser refuses, with 431 problem+json", async () => {
    const response = await send({ method: 'GET', target: '/', headers: [['x-big', 'b'.repeat(17_000)]], framing: { headers: [], body: '' } });
    assert.equal(response.status, 431);
    assert.equal(response.headers['content-type'], 'application/problem+json');
  });

  it('answers CONNECT (svc is no proxy) instead of dropping the connection', async () => {
    const response = await send({ method: 'CONNECT', target: 'example.com:443', headers: [], framing: { headers: [], body: '' } });
    assert.equal(response.status, 400);
  });
});

describe('slow clients (svc.json server timeouts)', () => {
  it('cuts off a client that trickles its headers (headersTimeoutMs)', async () => {
    const { answer, ms } = await trickleHeaders(app.svc.url);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    // Node looks for expired requests every tenth of the timeout (boot.ts): the default 1 s cut this one off after about 2 s.
    assert.ok(ms >= 900 && ms < 1800, `closed after ${Math.round(ms)} ms (headersTimeoutMs is 1000)`);
  });

  it('cuts off a request whose body never arrives (requestTimeoutMs)', async () => {
    const request = 'POST /echo HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\nconnection: close\r\n\r\nonly ten b';
    const { response, ms } = await exchange(app.svc.url, request, { timeoutMs: 8000 });
    assert.equal(response.status, 408);
    assert.ok(ms >= 1500 && ms < 2800, `answered after ${Math.round(ms)} ms (requestTimeoutMs is 2000)`);
  });

  it('closes an idle keep-alive connection (keepAliveTimeoutMs)', async () => {
    const { response, ms } = await exchange(app.svc.url, 'GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n', { timeoutMs: 8000 });
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), 'home');
    assert.ok(ms >= 400 && ms < 4000, `closed after ${Math.round(ms)} ms (keepAliveTimeoutMs is 500)`);
  });
});
