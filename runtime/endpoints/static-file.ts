// Files the docs endpoint serves as they are on disk: read once, kept in memory with
// their ETag, and read again when the file changes (`svc route docs` while serving).
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, sep } from 'node:path';
import type { Context } from '../context.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.gif': 'image/gif',
  '.html': 'text/html; charset=utf-8',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** By extension; files without one (LICENSE, NOTICE) are text. */
export function contentType(file: string): string {
  const extension = extname(file).toLowerCase();
  return extension === '' ? 'text/plain; charset=utf-8' : (CONTENT_TYPES[extension] ?? 'application/octet-stream');
}

interface Cached {
  /** ctime as well as mtime: a copy that keeps the modification time (`cp -p`) still moves it. */
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
}

/** The files of one folder. */
export class StaticFiles {
  private readonly cache = new Map<string, Cached>();

  constructor(readonly folder: string) {}

  /**
   * The content of `file` (a path inside the folder), or null when there is no such
   * regular file. A symbolic link that leads out of the folder counts as none: names are
   * checked before they get here, links are not, and the folder is meant to hold all
   * that is served (a link to /etc/passwd planted in it must not serve that).
   */
  async load(file: string): Promise<Cached | null> {
    let real: string;
    let info: Stats;
    try {
      let folder: string;
      [real, folder] = await Promise.all([realpath(file), realpath(this.folder)]);
      if (!real.startsWith(folder + sep)) return null;
      info = await stat(real);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    const cached = this.cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.ctimeMs === info.ctimeMs && cached.size === info.size) return cached;
    // The path that was checked, not `file` again: a link swapped in meanwhile is not followed.
    const body = await readFile(real).catch(() => null);
    if (body === null) return null;
    const fresh = { mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, size: info.size, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, body };
    this.cache.set(file, fresh);
    return fresh;
  }
}

/**
 * Answers with `file`'s content, or 304 when the client's copy is current.
 * `cacheControl` says how long a client may use its copy without asking again.
 */
export function sendFile(ctx: Context, file: Cached, type: string, cacheControl: string): Buffer | null {
  ctx.header('etag', file.etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
  if (ifNoneMatch(ctx.headers['if-none-match'], file.etag)) {
    ctx.status(304);
    return null;
  }
  ctx.header('content-type', type);
  return file.body;
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}
