// One file of shoebox/cache/: a JSON header line, then the body's bytes. Reading checks
// everything it can (shape, key, length, sha256 of the body), so a damaged file is
// recognised as such and never served.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { digest } from './http-cache.ts';

export interface CachedResponse {
  /** Path and sorted query: what the file name is the hash of. */
  key: string;
  status: number;
  /** The stored (safe) response headers, lower-case names. */
  headers: Record<string, string>;
  etag: string;
  /** ms since the epoch. */
  storedAt: number;
  expiresAt: number;
  body: Buffer;
}

const FORMAT = 1;
const NEWLINE = 0x0a;

interface Header extends Omit<CachedResponse, 'body'> {
  format: number;
  length: number;
  digest: string;
}

export function encodeEntry(entry: CachedResponse): Buffer {
  const { body, ...rest } = entry;
  const header: Header = { format: FORMAT, ...rest, length: body.byteLength, digest: digest(body) };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]);
}

/** The entry, or null when the bytes are not a whole, intact entry for `key`. */
export function decodeEntry(bytes: Buffer, key: string): CachedResponse | null {
  const end = bytes.indexOf(NEWLINE);
  if (end < 0) return null;
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, end)) as Header;
  } catch {
    return null;
  }
  if (!isHeader(header) || header.key !== key) return null;
  const body = bytes.subarray(end + 1);
  if (body.byteLength !== header.length || digest(body) !== header.digest) return null;
  const { format: _format, length: _length, digest: _digest, ...entry } = header;
  return { ...entry, body };
}

function isHeader(value: unknown): value is Header {
  const h = value as Header;
  return (
    typeof h === 'object' &&
    h !== null &&
    h.format === FORMAT &&
    typeof h.key === 'string' &&
    // Only GET 200 responses are stored; anything else was not written by ShoeCacheKnots.
    h.status === 200 &&
    typeof h.headers === 'object' &&
    h.headers !== null &&
    Object.entries(h.headers).every(([name, v]) => typeof v === 'string' && sendable(name, v)) &&
    typeof h.etag === 'string' &&
    sendable('etag', h.etag) &&
    typeof h.storedAt === 'number' &&
    typeof h.expiresAt === 'number' &&
    typeof h.length === 'number' &&
    typeof h.digest === 'string'
  );
}

/** Whether node would send the header: a valid name, a value without line breaks. A hit must never fail in writeHead. */
function sendable(name: string, value: string): boolean {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
}
