// Handler return value → Outgoing (SPEC §4). Synchronous for everything but a web
// `Response` and a `Blob`, whose bodies have to be read, so plain handlers never create
// a promise.
import { takesNoBody, type HeaderValue, type Outgoing } from './outgoing.ts';
import { responseBody } from './response-body.ts';

/** What a handler set through `ctx.status()` / `ctx.header()`; status 0 means "not set". */
export interface ResponseSettings {
  readonly statusCode: number;
  readonly headerValues: Readonly<Record<string, HeaderValue>> | null;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const BYTES = 'application/octet-stream';
/** Blobs up to this size are read whole; larger ones are streamed. */
const BLOB_READ_WHOLE = 1024 * 1024;

export function toOutgoing(value: unknown, settings: ResponseSettings): Outgoing | Promise<Outgoing> {
  const status = settings.statusCode;
  const text = textBody(value);
  if (text !== null) return withType(status || 200, textType(value), text, settings);
  if (value === null || value === undefined) return { status: status || 204, headers: { ...settings.headerValues }, body: null };
  const bytes = binary(value);
  if (bytes !== null) return withType(status || 200, BYTES, bytes, settings);
  if (value instanceof Response) return fromResponse(value, settings);
  if (value instanceof Blob) return fromBlob(value, status, settings);
  throw new TypeError(`A handler returned a ${typeof value}, which cannot be sent as a response.`);
}

/**
 * The body of the usual return values, a string (HTML) or anything JSON can hold; null
 * for the others: nothing, bytes, a `Response` or `Blob`, a function or a symbol.
 */
export function textBody(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Response || value instanceof Blob) return null;
  const json = JSON.stringify(value); // bigint and cycles throw: a 500 is right for those
  if (json === undefined) throw new TypeError('A handler returned a value that JSON cannot represent.');
  return json;
}

/** Bytes to send for a Buffer, any typed array or DataView (the bytes it views) or an ArrayBuffer; null for anything else. */
function binary(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value; // Buffer included
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return null;
}

/** The Content-Type of a body from `textBody`. */
export const textType = (value: unknown): string => (typeof value === 'string' ? HTML : JSON_TYPE);

function withType(status: number, type: string, body: Outgoing['body'], settings: ResponseSettings): Outgoing {
  // A status without content drops the value: its type would describe nothing sent (a 304
  // would tell caches the stored representation's type changed, RFC 9110 §15.4.5).
  const headers: Record<string, HeaderValue> = takesNoBody(status) ? {} : { 'content-type': type };
  if (settings.headerValues) Object.assign(headers, settings.headerValues);
  return { status, headers, body };
}

/** A `Response` is sent as it is: its status and headers win over `ctx.status()`/`ctx.header()`. */
async function fromResponse(response: Response, settings: ResponseSettings): Promise<Outgoing> {
  const headers: Record<string, HeaderValue> = { ...settings.headerValues };
  response.headers.forEach((value, name) => {
    // Cookies are not comma-joinable; length and framing the writer drops (runtime/http/write.ts).
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const body = response.body === null ? null : await responseBody(response.body);
  return { status: response.status, headers, body };
}

/**
 * A `Blob` (a `File` too) is sent as its bytes, typed by its own `type` when it has one.
 * A large one (a file from `fs.openAsBlob()`) is streamed with its size as the length:
 * read whole, a video would fill the memory, and one past 2 GiB could not be read.
 */
function fromBlob(blob: Blob, status: number, settings: ResponseSettings): Outgoing | Promise<Outgoing> {
  // Taken now: the pipeline hands later `ctx.header()` calls to the answer itself.
  const { headerValues } = settings;
  const answer = (body: Uint8Array | ReadableStream<Uint8Array>): Outgoing => withType(status || 200, blob.type || BYTES, body, { statusCode: status, headerValues });
  if (blob.size <= BLOB_READ_WHOLE) return blob.arrayBuffer().then((bytes) => answer(new Uint8Array(bytes)));
  const out = answer(blob.stream());
  out.headers['content-length'] = blob.size;
  return out;
}
