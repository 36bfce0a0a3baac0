// The request context. Closures declared with `function (this: Context, …)` get it as
// `this`; controllers reach it as `this.ctx` (see `Controller`); middleware gets it as
// its first argument. It is never a positional parameter: those are the placeholders.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderValue } from './http/outgoing.ts';

export interface RouteInfo {
  readonly id: number;
  readonly method: string;
  /** The registered pattern, e.g. `/users/{id}`. */
  readonly pattern: string;
}

export interface Context {
  readonly method: string;
  /** Canonical path: decoded, no query, no trailing slash. */
  readonly path: string;
  /** The raw request target as received. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly query: URLSearchParams;
  /** Client address: the socket peer, or X-Forwarded-For behind a trusted proxy. IPv4-mapped IPv6 is folded to IPv4. */
  readonly ip: string;
  /** Placeholder values by name (typed ones converted). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The raw body (empty when there is none); read before the handler runs, capped by `server.bodyLimit`. */
  readonly body: Buffer;
  /** The body parsed as JSON; a malformed body, or one nested deeper than 512 levels, throws a 400. */
  json<T = unknown>(): T;
  /**
   * The body as an HTML form (`application/x-www-form-urlencoded` or `multipart/form-data`,
   * uploads as `File`s): another type is a 415, a body that does not parse a 400.
   */
  form(): Promise<FormData>;
  text(): string;
  readonly route: RouteInfo | undefined;
  readonly requestId: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Status for a successful return value (default 200, or 204 for null). */
  status(code: number): this;
  header(name: string, value: HeaderValue): this;
}
