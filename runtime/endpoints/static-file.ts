// Files served as they are on disk (shoebox/outsole/, the API docs): a small one is read
// once and kept in memory with its ETag, read again when the file changes (`svc route
// docs` while serving); a large one (a video, a download) is streamed from disk for each
// request, so that it neither fills the memory nor meets Node's 2 GiB limit on one read.
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import { ifNoneMatch } from '../http/if-none-match.ts';
import { byteRange } from './byte-range.ts';
import { openRegularFile, readRegularFile } from '../shoebox/regular-file.ts';

/** Files up to this size are kept in memory. */
const CACHED_AT_MOST = 4 * 1024 * 1024;
/** What one folder's files may hold in memory together; the longest kept go first. */
const CACHE_BUDGET = 16 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.avif': 'image/avif',
  '.css': 'text/css; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.gif': 'image/gif',
  '.gz': 'application/gzip',
  '.html': 'text/html; charset=utf-8',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.m4a': 'audio/mp4',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.oga': 'audio/ogg',
  '.ogg': 'audio/ogg',
  '.ogv': 'video/ogg',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.wav': 'audio/wav',
  '.webm': 'video/webm',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
};

/**
 * By extension; files without one (LICENSE, NOTICE) are text. Media keep their own
 * type: sent with `nosniff`, a video typed as bytes would be downloaded, not played.
 */
export function contentType(file: string): string {
  const extension = extname(file).toLowerCase();
  return extension === '' ? 'text/plain; charset=utf-8' : (CONTENT_TYPES[extension] ?? 'application/octet-stream');
}

export interface StaticFile {
  /** ctime as well as mtime: a copy that keeps the modification time (`cp -p`) still moves it. */
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  etag: string;
  /** mtime as an HTTP-date, for `Last-Modified`. */
  lastModified: string;
  /** The content, kept in memory; null for a large file, streamed from `path` for each request. */
  body: Buffer | null;
  /** The file's real path, as checked to be inside the folder. */
  path: string;
}

/** The files of one folder. */
export class StaticFiles {
  /** In the order they were read: the first are dropped when the budget is spent. */
  private readonly cache = new Map<string, StaticFile>();
  private cachedBytes = 0;

  constructor(readonly folder: string) {}

  /**
   * The file at `file` (a path inside the folder), or null when there is no such regular
   * file. A symbolic link that leads out of the folder counts as none: names are checked
   * before they get here, links are not, and the folder is meant to hold all that is
   * served (a link to /etc/passwd planted in it must not serve that). `whole` reads it
   * into memory whatever its size, for a file served as it was at start-up.
   */
  async load(file: string, whole = false): Promise<StaticFile | null> {
    const found = await this.checked(file);
    if (found === null) {
      this.forget(file);
      return null;
    }
    const [real, info] = found;
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.ctimeMs === info.ctimeMs && cached.size === info.size) return cached;
    this.forget(file);
    const stamp = { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, size: info.size, path: real, lastModified: new Date(info.mtimeMs).toUTCString() };
    // From its metadata, as nginx's is (hashing the content would read all of it), and
    // strong as nginx's: the size and times change with the content, and a resumed
    // download's If-Range must be able to match it.
    if (info.size > CACHED_AT_MOST && !whole) return { ...stamp, etag: `"${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}-${Math.trunc(info.ctimeMs).toString(36)}"`, body: null };
    // The path that was checked, not `file` again: a link swapped in meanwhile is not followed.
    const body = await readRegularFile(real).catch(() => null);
    if (body === null) return null;
    const fresh = { ...stamp, size: body.length, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, body };
    if (body.length <= CACHED_AT_MOST) this.keep(file, fresh);
    return fresh;
  }

  private async checked(file: string): Promise<[real: string, info: Stats] | null> {
    try {
      const [real, folder] = await Promise.all([realpath(file), realpath(this.folder)]);
      if (!real.startsWith(folder + sep)) return null;
      const info = await stat(real);
      return info.isFile() ? [real, info] : null;
    } catch {
      return null;
    }
  }

  private keep(file: string, fresh: StaticFile): void {
    this.forget(file); // a request read it meanwhile, and kept its copy
    this.cache.set(file, fresh);
    this.cachedBytes += fresh.size;
    for (const [name, old] of this.cache) {
      if (this.cachedBytes <= CACHE_BUDGET) break;
      this.forget(name, old);
    }
  }

  private forget(file: string, cached = this.cache.get(file)): void {
    if (cached === undefined) return;
    this.cache.delete(file);
    this.cachedBytes -= cached.size;
  }
}

/**
 * Answers with `file`'s content, or the one range of it the request asks for (206), or
 * 304 when the client's copy is current. `cacheControl` says how long a client may use
 * its copy without asking again.
 */
export async function sendFile(ctx: Context, file: StaticFile, type: string, cacheControl: string): Promise<Buffer | Response | null> {
  ctx.header('etag', file.etag).header('last-modified', file.lastModified).header('cache-control', cacheControl);
  ctx.header('x-content-type-options', 'nosniff').header('accept-ranges', 'bytes');
  // If-Modified-Since counts only without If-None-Match (RFC 9110 §13.1.3), and to the second.
  const ifNone = ctx.headers['if-none-match'];
  if (ifNone !== undefined ? ifNoneMatch(ifNone, file.etag) : unmodifiedSince(ctx.headers['if-modified-since'], file.mtimeMs)) {
    ctx.status(304);
    return null;
  }
  ctx.header('content-type', type);
  const range = ctx.method === 'GET' && sameFile(ctx.headers['if-range'], file) ? byteRange(ctx.headers.range, file.size) : null;
  if (range === 'unsatisfiable') throw new HttpError(416, `The range asked for starts past the end of the file (${file.size} bytes).`, { 'content-range': `bytes */${file.size}` });
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  if (range !== null) ctx.status(206).header('content-range', `bytes ${start}-${end}/${file.size}`);
  if (file.body !== null) return range === null ? file.body : file.body.subarray(start, end + 1);
  // As long as the file was when its ETag was made: one that grows meanwhile is cut
  // there, one cut short ends the answer short (runtime/http/write-stream.ts).
  const handle = await openRegularFile(file.path);
  const stream = handle.createReadStream({ start, end });
  const headers = { 'content-type': type, 'content-length': String(end - start + 1) };
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: range === null ? 200 : 206, headers });
}

/**
 * `If-Range`: a range of the file the client holds part of, or else all of it. Only an
 * exact match counts (RFC 9110 §13.1.5): the ETag, or the `Last-Modified` date of a file
 * last changed more than a second ago (a date within the second it names is no strong
 * validator: the file may change again in it).
 */
function sameFile(ifRange: string | string[] | undefined, file: StaticFile): boolean {
  if (ifRange === undefined) return true;
  if (typeof ifRange !== 'string') return false;
  const given = ifRange.trim();
  if (given.startsWith('"')) return given === file.etag;
  return given === file.lastModified && Date.now() - file.mtimeMs >= 1000;
}

/** Whether `If-Modified-Since` names a time at or after the file's last change, to the second. */
function unmodifiedSince(header: string | undefined, mtimeMs: number): boolean {
  if (header === undefined) return false;
  const since = Date.parse(header);
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}
