// A body refused with 413 (or 501, for a transfer coding svc cannot read) is still read,
// and thrown away, for a bounded time after the answer (runtime/http/lingering-close.ts):
// closing with it unread would reset the connection, and a client still writing would
// lose the answer it had been sent.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { LINGER_BYTES, LINGER_MS } from '../../runtime/http/lingering-close.ts';
import { handApp } from '../support/hand-app.ts';
import { startApp, type Running } from '../support/server.ts';

const TEN_MB = 10 * 1000 * 1000;

/**
 * A node:http client that writes the whole body before it reads, posting `tries` times:
 * what each try got, a status or its error's code. It runs in a process of its own, as
 * a client does: sharing the server's event loop, it would read the answer before the
 * server's close could take it away.
 */
const UPLOADER = `
import { request } from 'node:http';
const [url, size, mode, tries] = process.argv.slice(1);
const body = Buffer.alloc(Number(size));
const upload = () => new Promise((resolve) => {
  const chunked = mode !== 'length';
  const headers = mode === 'length' ? { 'content-length': size } : mode === 'coded' ? { 'transfer-encoding': 'gzip, chunked' } : {};
  const req = request(url, { method: 'POST', agent: false, headers }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  req.on('error', (error) => resolve(error.code));
  if (!chunked) return void req.end(body);
  for (let at = 0; at < body.length; at += 65536) req.write(body.subarray(at, at + 65536));
  req.end();
});
const got = [];
for (let i = 0; i < Number(tries); i++) got.push(await upload());
console.log(JSON.stringify(got));
`;

async function uploads(url: string, mode: 'length' | 'chunked' | 'coded', tries: number): Promise<Array<number | string>> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', UPLOADER, `${url}/upload`, String(TEN_MB), mode, String(tries)]);
  let out = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  child.stderr.pipe(process.stderr);
  const [code] = (await once(child, 'close')) as [number];
  assert.equal(code, 0);
  return JSON.parse(out) as Array<number | string>;
}

/**
 * Sends a request declaring `length` bytes of body, then `chunk` every `everyMs` until the
 * server closes: resolves with the answer's status line and the milliseconds until the close.
 */
function keepSending(url: string, length: number, chunk: Buffer, everyMs: number): Promise<{ status: string; ms: number; sent: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Half-open: the server's FIN after its answer does not end this side, which keeps sending.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let answer = '';
    let sent = 0;
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const send = (): void => {
      if (socket.destroyed || !socket.writable) return;
      sent += chunk.length;
      if (everyMs === 0) socket.write(chunk, () => setImmediate(send));
      else {
        socket.write(chunk);
        timer = setTimeout(send, everyMs);
      }
    };
    socket.on('connect', () => {
      started = performance.now();
      socket.write(`POST /upload HTTP/1.1\r\nhost: a\r\ncontent-length: ${length}\r\n\r\n`);
      send();
    });
    socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
    socket.on('error', () => {}); // the close that ends the linger may be a reset
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: answer.split('\r\n')[0]!, ms: performance.now() - started, sent });
    });
    setTimeout(() => reject(new Error('the server never closed the connection')), LINGER_MS + 10_000).unref();
  });
}

describe('a body refused with 413', () => {
  let server: Running;
  before(async () => {
    server = await startApp(handApp([{ method: 'POST', pattern: '/upload', handler: function (this: Context) { return { size: this.body.length }; } }]));
  });
  after(() => server.close());

  it('reaches a client that writes a 10 MB body with Content-Length before reading', async () => {
    assert.deepEqual(await uploads(server.url, 'length', 10), Array(10).fill(413));
  });

  it('reaches a client that writes a 10 MB chunked body before reading', async () => {
    assert.deepEqual(await uploads(server.url, 'chunked', 10), Array(10).fill(413));
  });

  it('reaches a client that writes a 10 MB body in a transfer coding svc refuses (501) before reading', async () => {
    assert.deepEqual(await uploads(server.url, 'coded', 10), Array(10).fill(501));
  });

  it('a client that keeps trickling is cut off once the linger time is up', async () => {
    const { status, ms } = await keepSending(server.url, TEN_MB, Buffer.alloc(100), 50);
    assert.match(status, /^HTTP\/1\.1 413 /);
    assert.ok(ms >= LINGER_MS - 100 && ms < LINGER_MS + 1000, `closed after ${Math.round(ms)} ms`);
  });

  it('a client that keeps sending fast is cut off once the linger bytes are read', async () => {
    const { status, ms, sent } = await keepSending(server.url, 1e12, Buffer.alloc(256 * 1024), 0);
    assert.match(status, /^HTTP\/1\.1 413 /);
    assert.ok(ms < LINGER_MS, `closed after ${Math.round(ms)} ms`);
    // What the kernels' buffers took on top of what the server read.
    assert.ok(sent < LINGER_BYTES + 16 * 1024 * 1024, `${sent} bytes sent`);
  });

  it('keeps serving', async () => {
    const res = await fetch(`${server.url}/upload`, { method: 'POST', body: 'abc' });
    assert.deepEqual(await res.json(), { size: 3 });
  });
});
