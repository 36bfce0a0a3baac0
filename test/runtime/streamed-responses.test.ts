// A web Response whose body is still arriving is sent as it arrives (runtime/http/response-body.ts).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';

const encoder = new TextEncoder();
let cancelled = 0;

/** Yields `parts`, `pauseMs` apart; fails instead of ending when `fail` is set. */
function slowStream(parts: string[], pauseMs: number, fail = false): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) await sleep(pauseMs);
      if (next < parts.length) controller.enqueue(encoder.encode(parts[next++]));
      else if (fail) controller.error(new Error('the upstream went away'));
      else controller.close();
    },
    cancel() {
      cancelled++;
    },
  });
}

/** A stream of `parts`, 50 ms apart, sent with `length` as its Content-Length. */
const sized = (parts: string[], length: string): Response => new Response(slowStream(parts, 50), { headers: { 'content-length': length } });

interface Arrival {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Each chunk with the ms since the request went out. */
  chunks: Array<[string, number]>;
  error?: string;
}

/** Every chunk of the answer as it arrives, and whether the connection broke before the end. */
function arrivals(url: string, path: string): Promise<Arrival> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url + path, (res) => {
      const arrival: Arrival = { status: res.statusCode!, headers: res.headers, chunks: [] };
      res.on('data', (chunk: Buffer) => arrival.chunks.push([chunk.toString(), performance.now() - started]));
      res.on('end', () => resolve(arrival));
      res.on('error', (e) => resolve({ ...arrival, error: e.message }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('streamed Response bodies', () => {
  let server: Running;
  before(async () => {
    server = await startApp(
      handApp([
        { method: 'GET', pattern: '/events', handler: () => new Response(slowStream(['data: one\n\n', 'data: two\n\n'], 400), { headers: { 'content-type': 'text/event-stream' } }) },
        { method: 'GET', pattern: '/broken', handler: () => new Response(slowStream(['partial'], 50, true)) },
        { method: 'GET', pattern: '/text-chunks', handler: () => new Response(new ReadableStream<unknown>({ start: (c) => (c.enqueue('not bytes'), c.close()) }) as ReadableStream<Uint8Array>) },
        {
          method: 'GET',
          pattern: '/fails-first',
          handler: () => new Response(new ReadableStream<Uint8Array>({ pull: async (c) => (await sleep(50), c.error(new Error('the upstream went away'))) })),
        },
        {
          method: 'GET',
          pattern: '/late-text',
          handler: () => new Response(new ReadableStream<unknown>({ pull: async (c) => (await sleep(50), c.enqueue('not bytes')) }) as ReadableStream<Uint8Array>),
        },
        { method: 'GET', pattern: '/ready', handler: () => new Response(new ReadableStream({ start: (c) => (c.enqueue(encoder.encode('all ')), c.enqueue(encoder.encode('here')), c.close()) })) },
        { method: 'GET', pattern: '/sized', handler: () => sized(['0123456789', 'abcdef'], '16') },
        { method: 'GET', pattern: '/sized-short', handler: () => sized(['0123456789', 'abc'], '16') },
        { method: 'GET', pattern: '/sized-long', handler: () => sized(['0123456789', 'abcdefghij'], '16') },
        { method: 'GET', pattern: '/sized-long-first', handler: () => sized(['0123456789abcdefghij'], '16') },
        { method: 'GET', pattern: '/sized-nonsense', handler: () => sized(['0123456789', 'abc'], '13, 13') },
      ]),
    );
  });
  after(() => server.close());

  it('sends each chunk when it comes, chunked, without waiting for the end', async () => {
    const answer = await arrivals(server.url, '/events');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/event-stream');
    assert.equal(answer.headers['transfer-encoding'], 'chunked');
    assert.equal(answer.headers['content-length'], undefined);
    assert.deepEqual(answer.chunks.map(([text]) => text), ['data: one\n\n', 'data: two\n\n']);
    const [[, first], [, second]] = answer.chunks as [[string, number], [string, number]];
    assert.ok(second - first >= 300, `the first event arrived ${Math.round(second - first)} ms before the second, not with it`);
  });

  it('sends a stream whose chunks are all there at once with its length', async () => {
    const res = await raw(server.url, '/ready');
    assert.equal(res.body, 'all here');
    assert.equal(res.headers['content-length'], '8');
  });

  it('answers HEAD without reading the stream, and cancels it', async () => {
    const before = cancelled;
    const res = await raw(server.url, '/events', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.body, '');
    assert.equal(cancelled, before + 1);
  });

  it('cancels the stream when the client goes away', async () => {
    const before = cancelled;
    await new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}/events`, (res) => res.once('data', () => (req.destroy(), resolve())));
      req.on('error', (e) => (e.message === 'socket hang up' ? undefined : reject(e)));
      req.end();
    });
    for (let waited = 0; cancelled === before && waited < 2000; waited += 20) await sleep(20);
    assert.equal(cancelled, before + 1);
    assert.ok(!(await server.logLines()).some((line) => line.includes('[stream]')), 'a client leaving is not a failure');
  });

  it('cuts the connection when the stream fails after the headers, logs why and keeps serving', async () => {
    const answer = await arrivals(server.url, '/broken');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.chunks.map(([text]) => text), ['partial']);
    assert.equal(answer.error, 'aborted');
    // The server logs once its pipe gives up, which may come after the client saw the cut.
    let line: string | undefined;
    for (let waited = 0; line === undefined && waited < 2000; waited += 20) {
      line = (await server.logLines()).find((l) => l.includes('[stream]'));
      if (line === undefined) await sleep(20);
    }
    assert.match(line ?? '', /\[stream\] GET \/broken 200 from 127\.0\.0\.1 \(request [0-9a-f-]{36}\): the response body failed after its headers were sent: Error: the upstream went away/);
    assert.equal((await raw(server.url, '/ready')).status, 200);
  });

  it('answers 500, headers not yet sent, for a stream that fails before its first chunk', async () => {
    for (const path of ['/fails-first', '/late-text']) {
      const res = await raw(server.url, path);
      assert.equal(res.status, 500, path);
      assert.equal(res.headers['content-type'], 'application/problem+json', path);
    }
    const lines = await server.logLines();
    assert.ok(lines.some((line) => line.includes('[500] GET /fails-first 500 from')));
    assert.ok(!lines.some((line) => line.includes('[stream] GET /fails-first')), 'nothing was sent, so nothing was cut');
  });

  it('keeps the Content-Length a handler declares for a stream, HEAD included', async () => {
    const answer = await arrivals(server.url, '/sized');
    assert.deepEqual([answer.status, answer.headers['content-length'], answer.headers['transfer-encoding'], answer.error], [200, '16', undefined, undefined]);
    assert.equal(answer.chunks.map(([text]) => text).join(''), '0123456789abcdef');
    const head = await raw(server.url, '/sized', { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers['content-length'], head.body], [200, '16', '']);
    // Not a length: the stream goes out chunked, as without one.
    const nonsense = await arrivals(server.url, '/sized-nonsense');
    assert.deepEqual([nonsense.headers['content-length'], nonsense.headers['transfer-encoding']], [undefined, 'chunked']);
  });

  it('cuts the connection when a stream gives fewer or more bytes than its Content-Length, and keeps serving', async () => {
    for (const [path, gave] of [['/sized-short', 'only 13'], ['/sized-long', 'more']]) {
      const answer = await arrivals(server.url, path);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.error, 'aborted', path);
      // Never more than declared: the excess would be read as the next response.
      assert.ok(answer.chunks.map(([text]) => text).join('').length <= 16, path);
      let line: string | undefined;
      for (let waited = 0; line === undefined && waited < 2000; waited += 20) {
        line = (await server.logLines()).find((l) => l.includes(`[stream] GET ${path} 200`));
        if (line === undefined) await sleep(20);
      }
      assert.match(line ?? '', new RegExp(`declared Content-Length 16 and gave ${gave} bytes`), path);
    }
    // Too long at its first chunk, nothing is sent yet: an error response.
    assert.equal((await raw(server.url, '/sized-long-first')).status, 500);
    assert.equal((await raw(server.url, '/ready')).status, 200);
  });

  it('answers 500 for a stream that yields something other than bytes', async () => {
    const res = await raw(server.url, '/text-chunks');
    assert.equal(res.status, 500);
    assert.ok((await server.logLines()).some((line) => line.includes('not a Uint8Array')));
  });
});
