// The `Context` a request's handler and middleware see (runtime/context.ts is the
// contract). One object per request; everything not needed by every request (query,
// params by name, request id) is computed on first use.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
// Imported: node reads the global `performance` through a getter, and a request reads the clock twice.
import { performance } from 'node:perf_hooks';
import type { Context, RouteInfo } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import { EMPTY_BODY } from '../http/body.ts';
import { parseFormBody } from '../http/form-body.ts';
import { parseJsonBody } from '../http/json-body.ts';
import { declaredText, utf8Text } from '../http/text-body.ts';
import type { ResponseSettings } from '../http/convert.ts';
import type { HeaderValue } from '../http/outgoing.ts';
import { requestId } from './request-id.ts';

export interface BoundRouteInfo extends RouteInfo {
  /** Placeholder names, in the order `match` returns their values. */
  readonly paramNames: readonly string[];
  /** Where the route is registered, `routes/api.ts:12:3`, for logs. */
  readonly source: string;
}

const NO_PARAMS: readonly unknown[] = [];

export class RequestContext implements Context, ResponseSettings {
  readonly method: string;
  readonly url: string;
  path: string;
  route: BoundRouteInfo | undefined = undefined;
  paramValues: readonly unknown[] = NO_PARAMS;
  /**
   * What answers where the handler would run, after the route's middleware (so a rate
   * limit counts the request and adds its headers): a placeholder that does not fit its
   * type (400), a body over the limit (413) or in a coding svc cannot read (501).
   */
  handlerProblem: HttpError | null = null;
  body: Buffer = EMPTY_BODY;
  statusCode = 0;
  headerValues: Record<string, HeaderValue> | null = null;
  /** The client sends the body once it gets `100 Continue` (`Expect: 100-continue`). */
  awaitsContinue = false;
  /** `Expect` asked for something other than `100-continue`: answered with 417. */
  unmetExpectation = false;
  /** The error behind a 5xx, kept for the log line. */
  failure: unknown = undefined;
  /** When the request arrived (`performance.now()`), for the route metrics. */
  private readonly startedAt = performance.now();

  private queryCache: URLSearchParams | undefined = undefined;
  private paramsCache: Record<string, unknown> | undefined = undefined;
  private idCache: string | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly ip: string,
  ) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.path = this.url;
  }

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get query(): URLSearchParams {
    if (this.queryCache === undefined) {
      const mark = this.url.indexOf('?');
      this.queryCache = new URLSearchParams(mark < 0 ? '' : this.url.slice(mark + 1));
    }
    return this.queryCache;
  }

  get params(): Readonly<Record<string, unknown>> {
    if (this.paramsCache === undefined) {
      // Defined, not assigned: a placeholder named `{__proto__}` would set the prototype.
      const names = this.route?.paramNames ?? [];
      this.paramsCache = Object.fromEntries(names.map((name, i) => [name, this.paramValues[i]]));
    }
    return this.paramsCache;
  }

  /** Milliseconds since the request arrived. */
  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }

  get requestId(): string {
    return (this.idCache ??= requestId());
  }

  json<T = unknown>(): T {
    return parseJsonBody(utf8Text(this.body)) as T;
  }

  form(): Promise<FormData> {
    return parseFormBody(this.body, this.headers['content-type']);
  }

  text(): string {
    return declaredText(this.body, this.headers['content-type']);
  }

  status(code: number): this {
    // A 1xx is an interim answer, never the last: the client would wait for one that never comes.
    if (!Number.isInteger(code) || code < 200 || code > 599) throw new RangeError(`ctx.status() needs a final HTTP status from 200 to 599, got ${code}`);
    this.statusCode = code;
    return this;
  }

  header(name: string, value: HeaderValue): this {
    (this.headerValues ??= {})[name.toLowerCase()] = value;
    return this;
  }
}
