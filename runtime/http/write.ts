// Outgoing → the wire. HEAD gets the same headers (Content-Length included) and node
// drops the body itself.
import type { ServerResponse } from 'node:http';
import { takesNoBody, type HeaderValue, type Outgoing } from './outgoing.ts';
import { exactly, writeStream, type Streaming } from './write-stream.ts';

type Fields = Array<string | HeaderValue>;

/** Returns, for a streamed body only, how its sending goes (write-stream.ts). */
export function writeOutgoing(res: ServerResponse, out: Outgoing): Streaming | undefined {
  if (res.headersSent) {
    // The handler wrote to `ctx.res` itself; its response stands.
    if (!res.writableEnded) res.end();
    return;
  }
  const { status, body } = out;
  const bodiless = takesNoBody(status);
  const fields = fieldList(out.headers);
  if (bodiless) res.removeHeader('content-length');
  // A 205 says it has no content; without a length node would frame the nothing as chunked.
  if (status === 205) fields.push('content-length', 0);
  if (body instanceof ReadableStream) {
    // A stream of a known length (a file) keeps it: a download shows its progress, HEAD tells it.
    const length = bodiless ? null : declaredLength(out.headers);
    if (length === null) return writeStream(res, status, fields, body, bodiless);
    fields.push('content-length', length);
    return writeStream(res, status, fields, exactly(length, body), bodiless);
  }
  if (!bodiless) fields.push('content-length', body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  // One writeHead() with every field costs node far less than a setHeader() for each.
  res.writeHead(status, fields as string[]);
  if (bodiless || body === null) res.end();
  else res.end(body);
}

/**
 * `writeOutgoing` for a body whose one header is its type: the request pipeline sends a
 * handler's plain return value this way when no middleware would see an `Outgoing`.
 * False, and nothing written, for a status that takes no body.
 */
export function writeText(res: ServerResponse, status: number, type: string, body: string): boolean {
  if (takesNoBody(status)) return false;
  res.writeHead(status, ['content-type', type, 'content-length', Buffer.byteLength(body)]);
  res.end(body);
  return true;
}

/**
 * `headers` as writeHead()'s flat name/value list, without Content-Length and
 * Transfer-Encoding: the body decides the framing, and both at once is a message clients
 * refuse (RFC 9112 §6.2).
 */
function fieldList(headers: Readonly<Record<string, HeaderValue>>): Fields {
  const fields: Fields = [];
  for (const name in headers) {
    // writeHead() would send `Content-Type` and `content-type` both; one name, the last value wins.
    if (hasUpperCase(name)) return fieldList(lowerCased(headers));
    if (name !== 'content-length' && name !== 'transfer-encoding') fields.push(name, headers[name]!);
  }
  return fields;
}

function hasUpperCase(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
}

function lowerCased(headers: Readonly<Record<string, HeaderValue>>): Record<string, HeaderValue> {
  const lower: Record<string, HeaderValue> = {};
  for (const name in headers) lower[name.toLowerCase()] = headers[name]!;
  return lower;
}

/** A Content-Length the headers give, when it is one: digits alone, as RFC 9110 §8.6 has it. */
function declaredLength(headers: Readonly<Record<string, HeaderValue>>): number | null {
  for (const name in headers) {
    if (name.toLowerCase() !== 'content-length') continue;
    const value = headers[name];
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) return null;
    return Number(text);
  }
  return null;
}
