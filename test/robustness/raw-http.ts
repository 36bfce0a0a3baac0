// Requests written byte for byte on a TCP socket (no client library normalises or
// refuses them), and a strict reader of the one HTTP/1.1 response each must get.
import { connect } from 'node:net';

export interface ParsedResponse {
  status: number;
  /** Lower-cased names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface Exchange {
  /** Everything the server sent, interim 1xx responses included. */
  raw: Buffer;
  response: ParsedResponse;
  /** Milliseconds from writing the request until the server closed the connection. */
  ms: number;
}

/**
 * Writes `request` (whose last header should be `connection: close`) and reads until the
 * server closes the connection. Rejects when the bytes are not exactly one well-formed
 * response, or when the server neither answers nor closes within `timeoutMs`. `later`
 * is written `laterMs` after the request, unless the server has closed by then.
 */
export function exchange(
  url: string,
  request: Buffer | string,
  options: { head?: boolean; timeoutMs?: number; later?: string; laterMs?: number } = {},
): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${options.timeoutMs ?? 10_000} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 300))}`));
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A reset after the answer (node closing a connection whose request it refused) is fine.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      try {
        resolve({ raw, response: parseResponse(raw, options.head ?? false), ms: performance.now() - started });
      } catch (e) {
        reject(new Error(`${(e as Error).message}; received ${JSON.stringify(raw.toString('latin1').slice(0, 300))}`));
      }
    });
    socket.write(request);
    const { later } = options;
    if (later !== undefined) setTimeout(() => socket.writable && socket.write(later), options.laterMs ?? 200);
  });
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Exactly one final response (after any 1xx), framed by content-length, chunked coding or the close. */
export function parseResponse(raw: Buffer, head: boolean): ParsedResponse {
  let offset = 0;
  for (;;) {
    const end = raw.indexOf('\r\n\r\n', offset, 'latin1');
    if (end < 0) throw new Error('no complete status line and header block');
    const [statusLine, ...fields] = raw.toString('latin1', offset, end).split('\r\n');
    const status = /^HTTP\/1\.1 ([1-5][0-9]{2}) [^\r\n]*$/.exec(statusLine!);
    if (!status) throw new Error(`malformed status line ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const field of fields) {
      const colon = field.indexOf(':');
      const name = field.slice(0, colon);
      if (colon < 1 || !TOKEN.test(name)) throw new Error(`malformed header field ${JSON.stringify(field)}`);
      const key = name.toLowerCase();
      const value = field.slice(colon + 1).trim();
      headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
    }
    offset = end + 4;
    const code = Number(status[1]);
    if (code < 200) continue; // 100 Continue and friends precede the real answer
    const bodyEnd = bodyLength(raw, offset, code, headers, head);
    if (bodyEnd.end !== raw.length) throw new Error(`${raw.length - bodyEnd.end} bytes after the response`);
    return { status: code, headers, body: bodyEnd.body };
  }
}

function bodyLength(raw: Buffer, start: number, status: number, headers: Record<string, string>, head: boolean): { end: number; body: Buffer } {
  if (head || status === 204 || status === 304) return { end: start, body: Buffer.alloc(0) };
  if (headers['transfer-encoding'] !== undefined) {
    if (headers['transfer-encoding'] !== 'chunked') throw new Error(`unexpected transfer-encoding ${headers['transfer-encoding']}`);
    return dechunk(raw, start);
  }
  if (headers['content-length'] !== undefined) {
    if (!/^[0-9]+$/.test(headers['content-length'])) throw new Error(`bad content-length ${headers['content-length']}`);
    const end = start + Number(headers['content-length']);
    if (end > raw.length) throw new Error(`body shorter than content-length ${headers['content-length']}`);
    return { end, body: raw.subarray(start, end) };
  }
  return { end: raw.length, body: raw.subarray(start) }; // delimited by the close
}

function dechunk(raw: Buffer, start: number): { end: number; body: Buffer } {
  const parts: Buffer[] = [];
  let offset = start;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset, 'latin1');
    if (lineEnd < 0) throw new Error('truncated chunk size');
    const size = parseInt(raw.toString('latin1', offset, lineEnd), 16);
    if (!Number.isInteger(size) || size < 0) throw new Error('malformed chunk size');
    offset = lineEnd + 2;
    if (size === 0) {
      if (raw.toString('latin1', offset, offset + 2) !== '\r\n') throw new Error('trailers are not expected');
      return { end: offset + 2, body: Buffer.concat(parts) };
    }
    if (raw.toString('latin1', offset + size, offset + size + 2) !== '\r\n') throw new Error('truncated chunk');
    parts.push(raw.subarray(offset, offset + size));
    offset += size + 2;
  }
}

/**
 * A slowloris client: a request line and one header, then a byte of header every 100 ms,
 * until the server closes the connection. What the server sent, and after how long.
 */
export function trickleHeaders(url: string): Promise<{ answer: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(`GET / HTTP/1.1\r\nhost: ${hostname}\r\n`);
  const trickle = setInterval(() => socket.write('x'), 100);
  const started = performance.now();
  return new Promise((resolve) => {
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(trickle);
      resolve({ answer, ms: performance.now() - started });
    });
  });
}

/**
 * Writes `request`, then after `afterMs` ends the connection (`'end'`: FIN, `'reset'`:
 * RST) or, with `'wait'`, leaves it to the server. Resolves with everything the server
 * sent once the connection is closed.
 */
export function sendThen(url: string, request: string, then: 'end' | 'reset' | 'wait', afterMs = 50): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.write(request);
    if (then !== 'wait') setTimeout(() => (then === 'end' ? socket.end() : socket.resetAndDestroy()), afterMs);
  });
}

/**
 * Sends `head`, a request with `expect: 100-continue` (and `connection: close`), then
 * `body` only if the server's first answer is `100 Continue`. Resolves once the server
 * closes the connection, with whether the body was asked for and the final response.
 */
export function expectContinue(url: string, head: string, body: string): Promise<{ invited: boolean; response: ParsedResponse }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let invited = false;
    socket.on('data', (chunk: Buffer) => {
      if (chunks.length === 0 && chunk.toString('latin1').startsWith('HTTP/1.1 100 ')) {
        invited = true;
        socket.write(body);
      }
      chunks.push(chunk);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      try {
        resolve({ invited, response: parseResponse(Buffer.concat(chunks), false) });
      } catch (e) {
        reject(e as Error);
      }
    });
    socket.write(head);
  });
}
