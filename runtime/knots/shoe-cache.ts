// ShoeCacheKnots(ttlSeconds = cache.ttl) (SPEC §9): GET 200 responses cached on disk in
// shoebox/cache/, keyed by path and sorted query. The disk is the only copy, so entries
// survive a restart and `svc cache:clear` takes effect at once, even on a running server.
import type { Context } from '../context.ts';
import { ifNoneMatch } from '../http/if-none-match.ts';
import type { HeaderValue, Next, Outgoing } from '../http/outgoing.ts';
import { logError } from '../shoebox/log.ts';
import { ensureFolder, shoeboxPath } from '../shoebox/paths.ts';
import type { CachedResponse } from './cache-entry.ts';
import { CacheStore } from './cache-store.ts';
import { cacheDirectives, digest, entityTag, sharedMaxAge } from './http-cache.ts';
import type { KnotSetup, Middleware } from './middleware.ts';
import { shoeCacheProblem } from './parameter-checks.ts';

/** Response headers kept with an entry; anything else (cookies, per-request ids…) is not replayed. */
const STORED_HEADERS = ['content-type', 'content-language', 'content-encoding', 'content-disposition', 'cache-control', 'expires', 'last-modified', 'link'];

/** Response directives that forbid keeping a shared copy (RFC 9111 §5.2.2). */
const PRIVATE_DIRECTIVES = ['no-store', 'private', 'no-cache'];
/** How far ahead of this server's clock another's may run, for an entry it stored to count as stored now. */
const CLOCKS_AGREE_MS = 1000;

/** Response directives that let a shared cache keep the answer to a request with `Authorization` (RFC 9111 §3.5). */
const SHARED_DIRECTIVES = ['public', 's-maxage', 'must-revalidate'];

export interface ShoeCacheOptions {
  /**
   * How many entries shoebox/cache/ holds at most (10,000 by default). Every key is an
   * entry, and a client can make up keys (`?junk=1`, `?junk=2`…): past the cap, a sweep
   * removes those that expire soonest, so the folder cannot fill the disk.
   */
  maxEntries?: number;
}

export class ShoeCacheKnots implements Middleware {
  /** Both set by `start`: the TTL may come from svc.json, the folder from the project root. */
  private ttlMs = 0;
  private store: CacheStore | null = null;
  /** The last write failed (and was logged). */
  private failing = false;
  private readonly maxEntries: number;
  /** A sweep runs every tenth of `maxEntries` writes. */
  private readonly sweepEvery: number;
  /** Entries written since the last sweep. */
  private written = 0;
  private sweeping = false;

  /**
   * Without `ttlSeconds`, or with `null`, svc.json `cache.ttl` applies (read at start-up).
   * `options` is a second, optional entry parameter: `[ShoeCacheKnots, [300, { maxEntries:
   * 50000 }]]`; `[ShoeCacheKnots, [null, { maxEntries: 50000 }]]` keeps svc.json's TTL, for
   * entry parameters are JSON values, which have no `undefined`.
   */
  constructor(
    private readonly ttlSeconds?: number | null,
    options: ShoeCacheOptions = {},
  ) {
    const { maxEntries = 10_000 } = options;
    const problem = shoeCacheProblem(ttlSeconds, maxEntries);
    if (problem !== null) throw new RangeError(problem);
    this.maxEntries = maxEntries;
    this.sweepEvery = Math.max(1, Math.floor(maxEntries / 10));
  }

  async start({ root, config }: KnotSetup): Promise<void> {
    this.ttlMs = (this.ttlSeconds ?? config.cache.ttl) * 1000;
    const folder = shoeboxPath(root, 'cache');
    try {
      await ensureFolder(folder);
    } catch (e) {
      // A cache is an optimisation: the application serves without one, and the health
      // endpoint reports the folder as down until it is fixed.
      logError('cache', `ShoeCacheKnots cannot use ${folder} (${(e as Error).message}); responses are served uncached until it can`);
    }
    this.store = new CacheStore(folder);
  }

  /** The clock, in ms since the epoch. Tests override it in a subclass to move time without sleeping. */
  protected now(): number {
    return Date.now();
  }

  async handle(ctx: Context, next: Next): Promise<Outgoing> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const store = this.store;
    if (store === null) throw new Error('ShoeCacheKnots.handle() ran before start(): the pipeline starts every knot at start-up');
    const asked = cacheDirectives(ctx.headers['cache-control']);
    const key = cacheKey(ctx);
    // `no-cache` asks for a fresh answer (which may be stored); `no-store` keeps the cache out of it altogether.
    if (!asked.has('no-store') && !asked.has('no-cache')) {
      const entry = await store.read(key);
      if (entry !== null && this.fresh(entry) && this.youngEnough(entry, asked)) return this.hit(ctx, entry);
    }

    const out = await next();
    // A body still arriving (a streamed `Response`) is passed on as it comes, not kept.
    if (out.status !== 200 || out.body === null || out.body instanceof ReadableStream) return withCacheHeaders(out, 'MISS');
    const body = Buffer.from(out.body);
    const given = out.headers['etag'];
    const etag = typeof given === 'string' ? given : entityTag(digest(body));
    out.headers['etag'] = etag;
    const directives = cacheDirectives(out.headers['cache-control']);
    // The handler's own `max-age` (or `s-maxage`) shortens the TTL, never lengthens it.
    const handlerSeconds = sharedMaxAge(directives);
    const lifetimeMs = handlerSeconds === undefined ? this.ttlMs : Math.min(this.ttlMs, handlerSeconds * 1000);
    if (ctx.method === 'GET' && !asked.has('no-store') && lifetimeMs > 0 && shareable(out.headers, directives, ctx.headers.authorization !== undefined)) {
      const now = this.now();
      await this.save(store, { key, status: out.status, headers: storedHeaders(out.headers), etag, storedAt: now, expiresAt: now + lifetimeMs, body });
    }
    return ifNoneMatch(ctx.headers['if-none-match'], etag) ? notModified(out.headers, 'MISS') : withCacheHeaders(out, 'MISS');
  }

  /**
   * Within the expiry the entry was written with and within this knot's TTL: an entry
   * stored under a longer TTL (before svc.json `cache.ttl` or the entry's parameter was
   * lowered, and the server restarted) is not served past the TTL in force now. An entry
   * stored later than now was written before the clock was set back (NTP stepping it, a
   * VM resumed), or by a server whose clock runs ahead: it would be served for the step
   * on top of its TTL. A second's difference is clocks that agree.
   */
  private fresh(entry: CachedResponse): boolean {
    const now = this.now();
    return entry.storedAt - now <= CLOCKS_AGREE_MS && now < Math.min(entry.expiresAt, entry.storedAt + this.ttlMs);
  }

  /**
   * Within the age a request's `max-age` accepts (RFC 9111 §5.2.1.1): a browser's reload
   * sends `max-age=0`, and gets the fresh answer, which then replaces the entry.
   */
  private youngEnough(entry: CachedResponse, asked: ReadonlyMap<string, string>): boolean {
    const given = asked.get('max-age');
    return given === undefined || this.ageOf(entry) <= (/^\d+$/.test(given) ? Number(given) : 0);
  }

  /** Whole seconds since the entry was stored, as its `Age` says. */
  private ageOf(entry: CachedResponse): number {
    return Math.max(0, Math.floor((this.now() - entry.storedAt) / 1000));
  }

  private hit(ctx: Context, entry: CachedResponse): Outgoing {
    const headers: Record<string, HeaderValue> = { ...entry.headers, etag: entry.etag, age: String(this.ageOf(entry)) };
    if (ifNoneMatch(ctx.headers['if-none-match'], entry.etag)) return notModified(headers, 'HIT');
    return withCacheHeaders({ status: entry.status, headers, body: entry.body }, 'HIT');
  }

  /**
   * A cache that cannot write is a cache that misses: the response is still served. The
   * failure is logged once until a write succeeds again, not once per request.
   */
  private async save(store: CacheStore, entry: CachedResponse): Promise<void> {
    try {
      await store.write(entry);
      this.failing = false;
    } catch (e) {
      if (!this.failing) logError('cache', `ShoeCacheKnots could not store ${entry.key} in ${store.folder}: ${(e as Error).message}`);
      this.failing = true;
      return;
    }
    if (++this.written >= this.sweepEvery) void this.sweep(store);
  }

  /** In the background: the response that triggered it does not wait for the folder's listing. */
  private async sweep(store: CacheStore): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    this.written = 0;
    try {
      await store.sweep(this.now(), this.maxEntries);
    } catch (e) {
      logError('cache', `ShoeCacheKnots could not sweep ${store.folder}: ${(e as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }
}

/**
 * Host, path and query with its parameters sorted: `?b=2&a=1` and `?a=1&b=2` are one
 * entry. The host is part of the target (RFC 9111 §2): an answer that names it (an
 * absolute link built from `Host`) must not be replayed to clients that asked another
 * (cache poisoning); a host holds no `/`, so it ends where the path starts. The canonical
 * path holds a `?` decoded from `%3F` (`/p/a%3Fb=1`, placeholder `a?b=1`); it is escaped
 * again so that key is not the one of `/p/a?b=1`. A `%` of the path is always `%25` or
 * `%2F` (runtime/routing/canonical-path.ts), so `%3F` cannot come from it.
 */
function cacheKey(ctx: Context): string {
  const host = (ctx.headers.host ?? '').toLowerCase();
  const path = ctx.path.replaceAll('?', '%3F');
  const query = new URLSearchParams(ctx.query);
  query.sort();
  const search = query.toString();
  return `${host}${path}${search ? `?${search}` : ''}`;
}

/**
 * Whether one client's answer may be replayed to others. An answer to a request with
 * `Authorization` may be that client's own data, the cache key knows nothing of who asked,
 * so it is kept only when the handler says it is the same for everyone (RFC 9111 §3.5).
 */
function shareable(headers: Readonly<Record<string, HeaderValue>>, directives: ReadonlyMap<string, string>, authorized: boolean): boolean {
  if (headers['set-cookie'] !== undefined || headers['vary'] !== undefined) return false;
  if (PRIVATE_DIRECTIVES.some((name) => directives.has(name))) return false;
  return !authorized || SHARED_DIRECTIVES.some((name) => directives.has(name));
}

function storedHeaders(headers: Readonly<Record<string, HeaderValue>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = typeof value === 'object' ? value.join(', ') : String(value);
  }
  return kept;
}

function withCacheHeaders(out: Outgoing, state: 'HIT' | 'MISS'): Outgoing {
  out.headers['x-cache'] = state;
  return out;
}

/** What describes the body a 304 does not send; the client keeps those of its stored copy. */
const REPRESENTATION_HEADERS = ['content-type', 'content-length', 'content-language', 'content-encoding', 'content-disposition', 'content-range'];

/**
 * 304 drops the representation's metadata, and keeps everything else: the validators and
 * caching headers, and on a MISS what the handler and inner knots added (`Vary`, which
 * RFC 9110 §15.4.5 requires, a `Set-Cookie`, the X-RateLimit-* headers).
 */
function notModified(headers: Readonly<Record<string, HeaderValue>>, state: 'HIT' | 'MISS'): Outgoing {
  const kept: Record<string, HeaderValue> = { ...headers, 'x-cache': state };
  for (const name of REPRESENTATION_HEADERS) delete kept[name];
  return { status: 304, headers: kept, body: null };
}
