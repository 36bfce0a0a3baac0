// The request pipeline (ARCHITECTURE: "Request pipeline"): one request from its target to
// its answer, log line and metrics. A route without middleware whose handler returns
// synchronously is served without creating a promise; the body, middleware, a Promise or
// a `Response` switch to the asynchronous path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError } from '../errors/http-error.ts';
import type { ErrorPages } from '../errors/pages.ts';
import { asAnsweredBy, problemOutgoing, statusTitle, type Problem } from '../errors/problem.ts';
import { ClientGone, declaredTooLarge, hasBody, readBody, tooLarge, unknownCoding } from '../http/body.ts';
import { textBody, textType, toOutgoing } from '../http/convert.ts';
import { hostFieldCount, validHost } from '../http/host-fields.ts';
import type { HeaderValue, Outgoing } from '../http/outgoing.ts';
import { lingerOnClose } from '../http/lingering-close.ts';
import { writeOutgoing, writeText } from '../http/write.ts';
import type { ClientAddress, IpFilter } from '../ip/index.ts';
import { allowList } from '../routing/allow.ts';
import { canonicalPath, wellFormedPrefix } from '../routing/canonical-path.ts';
import type { MatchFn } from '../routing/match.ts';
import { described, formatCheckedLine, formatLogLine, oneLine, textOf, type LogWriter } from '../shoebox/log.ts';
import type { RouteMetrics } from '../shoebox/metrics/route-metrics.ts';
import { underOutsole } from '../endpoints/outsole.ts';
import type { CompiledApp } from './app.ts';
import type { BoundRoute } from './bind.ts';
import { answerClientError, targetTooLong } from './client-error.ts';
import { answerConnect } from './connect.ts';
import { RequestContext } from './context.ts';
import type { RequestListeners } from './handler.ts';

const GENERIC_500 = 'The server could not handle the request.';
const NO_HEADERS = {};
const MISSING_HOST: Problem = { status: 400, detail: 'An HTTP/1.1 request must have a Host header field.', headers: { connection: 'close' } };
const REPEATED_HOST: Problem = { status: 400, detail: 'A request must not have more than one Host header field.', headers: { connection: 'close' } };
const INVALID_HOST: Problem = { status: 400, detail: 'The Host header field must be a host name or address, and a port if any.', headers: { connection: 'close' } };
// The connection closes after it: a body sent along with the expectation may follow.
const UNMET_EXPECTATION: Problem = { status: 417, detail: 'The only expectation this server meets is `Expect: 100-continue`.', headers: { connection: 'close' } };
const TOO_LONG = Symbol('too long');
/** Characters of a refused, over-long target that its log line keeps. */
const LOGGED_TARGET = 200;

export class Pipeline implements RequestListeners {
  private readonly match: MatchFn;
  private readonly dev: boolean;
  private readonly bodyLimit: number;
  private readonly maxUrlLength: number;
  private readonly ipFilter: IpFilter;
  private readonly clientAddress: ClientAddress;
  private readonly metrics: RouteMetrics;
  /** The files of shoebox/outsole/, for GET and HEAD requests under its mount that no route takes. */
  private readonly outsole: BoundRoute;
  /** Every method the application's routes take: the `Allow` of `OPTIONS *`. */
  private readonly serverAllow: string;

  constructor(
    app: CompiledApp,
    private readonly routes: readonly BoundRoute[],
    private readonly pages: ErrorPages,
    private readonly log: LogWriter,
    settings: { dev: boolean; bodyLimit: number; maxUrlLength: number; ipFilter: IpFilter; clientAddress: ClientAddress; metrics: RouteMetrics; outsole: BoundRoute },
  ) {
    this.match = app.match;
    this.dev = settings.dev;
    this.bodyLimit = settings.bodyLimit;
    this.maxUrlLength = settings.maxUrlLength;
    this.ipFilter = settings.ipFilter;
    this.clientAddress = settings.clientAddress;
    this.metrics = settings.metrics;
    this.outsole = settings.outsole;
    this.serverAllow = allowList(app.manifest.routes.map((route) => route.method)).join(', ');
  }

  connect = (req: IncomingMessage, socket: Duplex): void => answerConnect(this.handle, req, socket);

  // The peer as every other log line names it: the pipeline's own address reading, given
  // no headers, so no forwarded hop (there is no parsed request to take one from). With no
  // path either, it meets the rules every path has, as a pathless target does in dispatch.
  clientError = (error: Error, socket: Duplex): void =>
    answerClientError(error, socket, this.log, this.maxUrlLength, (peer) => {
      const address = this.clientAddress({ socket: peer, headers: NO_HEADERS } as IncomingMessage);
      return { address, allowed: this.ipFilter(address, '/') };
    });

  handle = (req: IncomingMessage, res: ServerResponse): void => this.serve(new RequestContext(req, res, this.clientAddress(req)));

  /**
   * A request with `Expect: 100-continue`, whose client holds the body back until told to
   * send it: the IP rules, the route and a declared length over the limit are decided
   * first, so that a refusal costs no upload. Node closes the connection after a final
   * answer sent without `100 Continue`, as the body may still follow.
   */
  checkContinue = (req: IncomingMessage, res: ServerResponse): void => {
    const ctx = new RequestContext(req, res, this.clientAddress(req));
    // Node takes any list that names 100-continue (`100-continue, foo`): the other members
    // are expectations svc cannot meet either.
    if (req.headers.expect?.trim().toLowerCase() === '100-continue') ctx.awaitsContinue = true;
    else ctx.unmetExpectation = true;
    this.serve(ctx);
  };

  /**
   * A request whose `Expect` is not `100-continue`: an expectation svc cannot meet, so 417
   * (RFC 9110 §10.1.1), decided after the IP rules and answered with a body and a log line
   * like any refusal, where node alone would send a bare 417.
   */
  checkExpectation = (req: IncomingMessage, res: ServerResponse): void => {
    const ctx = new RequestContext(req, res, this.clientAddress(req));
    ctx.unmetExpectation = true;
    this.serve(ctx);
  };

  private serve(ctx: RequestContext): void {
    try {
      this.dispatch(ctx);
    } catch (error) {
      // An exception escaping a request listener would end the process.
      this.failWith(ctx, error);
    }
  }

  private dispatch(ctx: RequestContext): void {
    const { req } = ctx;
    const path = ctx.url.length > this.maxUrlLength ? TOO_LONG : canonicalPath(ctx.url);
    if (typeof path === 'string') ctx.path = path;
    // The IP filter sees the same canonical path the router does (SPEC §4, §5). A target
    // refused below still meets the rules of as much of its path as can be read.
    if (!this.ipFilter(ctx.ip, typeof path === 'string' ? path : wellFormedPrefix(ctx.url))) {
      return this.fail(ctx, { status: 403, detail: 'Your address may not access this path.' });
    }
    // Node's own check answers with no body and no log line; the servers svc creates turn it off (boot.ts).
    const { host } = req.headers;
    if (host === undefined) {
      if (req.httpVersion === '1.1') return this.fail(ctx, MISSING_HOST);
    } else if (hostFieldCount(req.rawHeaders) > 1) return this.fail(ctx, REPEATED_HOST);
    else if (!validHost(host)) return this.fail(ctx, INVALID_HOST);
    if (ctx.unmetExpectation) return this.fail(ctx, UNMET_EXPECTATION);
    if (path === TOO_LONG) {
      // The log line shows how the target starts: all of it would be a line as long as what was refused.
      ctx.path = `${ctx.url.slice(0, LOGGED_TARGET)}… (${ctx.url.length} characters)`;
      return this.fail(ctx, targetTooLong(this.maxUrlLength));
    }
    if (path === null) {
      if (ctx.url === '*') return this.asterisk(ctx);
      if (ctx.method === 'CONNECT') return this.fail(ctx, { status: 400, detail: 'CONNECT asks for a proxy tunnel, and this server is no proxy.' });
      return this.fail(ctx, { status: 400, detail: 'The request path is malformed (for example a broken percent-escape).' });
    }

    const found = this.match(ctx.method, path);
    switch (found.kind) {
      case 'found':
        break;
      case 'not-found':
        if ((ctx.method === 'GET' || ctx.method === 'HEAD') && underOutsole(path)) return this.run(this.outsole, ctx);
        return this.fail(ctx, { status: 404, detail: `No route for ${asAnsweredBy(ctx.method)} ${path}.` });
      case 'method-not-allowed': {
        const allow = allowHeader(found.allow);
        if (ctx.method === 'OPTIONS') return this.send(ctx, { status: 204, headers: { allow }, body: null });
        return this.fail(ctx, { status: 405, detail: `${asAnsweredBy(ctx.method)} is not allowed on ${path}; allowed: ${allow}.`, headers: { allow } });
      }
      case 'bad-param': {
        const route = this.routes[found.route]!;
        ctx.route = route.info;
        return this.refuseAtHandler(route, ctx, new HttpError(400, `The path parameter "${found.param}" must be ${found.expected}.`));
      }
    }

    const route = this.routes[found.route]!;
    ctx.route = route.info;
    ctx.paramValues = found.params;
    if (!hasBody(req)) return this.run(route, ctx);
    const coding = unknownCoding(req);
    if (coding !== null) {
      const detail = `The transfer coding "${coding}" is not supported: send the body with chunked alone, or with Content-Length.`;
      return this.refuseAtHandler(route, ctx, new HttpError(501, detail, { connection: 'close' }));
    }
    if (declaredTooLarge(req, this.bodyLimit)) return this.refuseAtHandler(route, ctx, tooLarge(this.bodyLimit));
    if (ctx.awaitsContinue) ctx.res.writeContinue();
    readBody(req, this.bodyLimit).then(
      (body) => {
        ctx.body = body;
        this.run(route, ctx);
      },
      (error: unknown) => (error instanceof HttpError ? this.refuseAtHandler(route, ctx, error) : this.failWith(ctx, error)),
    );
  }

  /**
   * Answers `problem` in the handler's place. The route's middleware (authentication, the
   * rate limit and its headers) sees the request as it sees any other to this route.
   */
  private refuseAtHandler(route: BoundRoute, ctx: RequestContext, problem: HttpError): void {
    if (route.middleware.length === 0) return this.failWith(ctx, problem);
    ctx.handlerProblem = problem;
    this.run(route, ctx);
  }

  /** The asterisk-form target asks about the server as a whole, and only OPTIONS does (RFC 9110 §9.3.7). */
  private asterisk(ctx: RequestContext): void {
    if (ctx.method === 'OPTIONS') return this.send(ctx, { status: 204, headers: { allow: this.serverAllow }, body: null });
    this.fail(ctx, { status: 400, detail: `The request target * (asterisk-form) is for OPTIONS only, not ${asAnsweredBy(ctx.method)}.` });
  }

  private run(route: BoundRoute, ctx: RequestContext): void {
    if (route.middleware.length > 0) {
      this.chain(route, ctx, 0).then(
        (out) => this.send(ctx, out),
        (error: unknown) => this.failWith(ctx, error),
      );
      return;
    }
    let value: unknown;
    try {
      value = route.invoke(ctx, ctx.paramValues);
    } catch (error) {
      return this.failWith(ctx, error);
    }
    if (isThenable(value)) {
      value.then(
        (resolved) => this.respond(ctx, resolved),
        (error: unknown) => this.failWith(ctx, error),
      );
    } else this.respond(ctx, value);
  }

  /** The handler's value, on the path without middleware. */
  private respond(ctx: RequestContext, value: unknown): void {
    let out: Outgoing | Promise<Outgoing> | null;
    try {
      out = this.wrotePlain(ctx, value) ? null : converted(value, ctx);
    } catch (error) {
      return this.failWith(ctx, error);
    }
    if (out === null) this.sent(ctx, ctx.statusCode || 200);
    else if (out instanceof Promise) {
      out.then(
        (written) => this.send(ctx, written),
        (error: unknown) => this.failWith(ctx, error),
      );
    } else this.send(ctx, out);
  }

  /**
   * Nothing reads an `Outgoing` on the path without middleware: text and JSON the handler
   * added no header to go straight out, unless it wrote to `ctx.res` itself. False when
   * `value` needs the general path.
   */
  private wrotePlain(ctx: RequestContext, value: unknown): boolean {
    if (ctx.headerValues !== null || ctx.res.headersSent) return false;
    const text = textBody(value);
    return text !== null && writeText(ctx.res, ctx.statusCode || 200, textType(value), text);
  }

  /**
   * Middleware `i` onwards. The promise always resolves (runtime/knots/middleware.ts): an
   * error thrown further in, by a middleware or the handler, arrives as its error
   * response, so outer middleware still see and may decorate it. Not an `async`
   * function: a middleware or handler that answers synchronously then costs one promise,
   * not a turn of the microtask queue for each `await`.
   */
  private chain(route: BoundRoute, ctx: RequestContext, i: number): Promise<Outgoing> {
    const atHandler = i === route.middleware.length;
    let value: unknown;
    try {
      if (!atHandler) value = route.middleware[i]!.handle(ctx, this.nextOf(route, ctx, i + 1));
      else if (ctx.handlerProblem !== null) throw ctx.handlerProblem;
      else value = route.invoke(ctx, ctx.paramValues);
    } catch (error) {
      return Promise.resolve(this.errorOutgoing(ctx, error));
    }
    if (!isThenable(value)) return Promise.resolve(this.settle(ctx, value, atHandler));
    return Promise.resolve(value).then(
      (resolved) => this.settle(ctx, resolved, atHandler),
      (error: unknown) => this.errorOutgoing(ctx, error),
    );
  }

  /**
   * The `next` a middleware gets. Called twice, it would run the rest of the chain, the
   * handler and every inner knot (a rate limit counting twice) again: it throws instead,
   * as Koa's and Hono's do.
   */
  private nextOf(route: BoundRoute, ctx: RequestContext, i: number): () => Promise<Outgoing> {
    let called = false;
    return () => {
      if (called) return Promise.reject(new Error(`next() called more than once by ${route.middleware[i - 1]!.constructor.name}: the rest of the chain runs once per request`));
      called = true;
      return this.chain(route, ctx, i);
    };
  }

  /**
   * A handler's value, or what a middleware returned, as the response so far: a
   * middleware may hand on an `Outgoing` as it is. Never throws, and a promise it returns
   * never rejects.
   */
  private settle(ctx: RequestContext, value: unknown, fromHandler: boolean): Outgoing | Promise<Outgoing> {
    try {
      const out = !fromHandler && isOutgoing(value) ? value : converted(value, ctx);
      return out instanceof Promise ? out.catch((error: unknown) => this.errorOutgoing(ctx, error)) : out;
    } catch (error) {
      return this.errorOutgoing(ctx, error);
    }
  }

  private errorOutgoing(ctx: RequestContext, error: unknown): Outgoing {
    return this.problemOutgoing(ctx, this.problemFor(ctx, error));
  }

  private send(ctx: RequestContext, out: Outgoing): void {
    if (ctx.headerValues !== null) addContextHeaders(out, ctx.headerValues);
    // An answer that closes the connection with the request body still arriving (413, 501,
    // 417) lingers, so that a client that writes before it reads still gets it.
    if (out.headers['connection'] === 'close' && !ctx.req.complete) lingerOnClose(ctx.req.socket);
    let sent = out;
    try {
      const streaming = writeOutgoing(ctx.res, out);
      if (streaming) {
        // Counted once its status is sent; a stream that fails first gets an error response instead.
        streaming.sent.then(() => this.sent(ctx, out.status), (error: unknown) => this.failWith(ctx, error));
        streaming.done.catch((error: unknown) => this.logBrokenStream(ctx, out.status, error));
        return;
      }
    } catch (error) {
      // A header value node refuses (a newline, a bad name): answer 500 without the handler's headers.
      sent = this.errorOutgoing(ctx, error);
      if (ctx.res.headersSent) ctx.res.destroy();
      else {
        for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
        // The refused writeHead() already chose the reason phrase of the handler's status.
        ctx.res.statusMessage = '';
        writeOutgoing(ctx.res, sent);
      }
    }
    this.sent(ctx, sent.status);
  }

  /** Every response ends here once written: its log line if it is an error, its route's metrics. */
  private sent(ctx: RequestContext, status: number): void {
    if (status >= 400) this.logResponse(ctx, status);
    if (ctx.route !== undefined) this.metrics.record(ctx.route.id, ctx.elapsedMs());
  }

  private fail(ctx: RequestContext, problem: Problem): void {
    this.send(ctx, this.problemOutgoing(ctx, problem));
  }

  private failWith(ctx: RequestContext, error: unknown): void {
    if (error instanceof ClientGone) return; // nobody is left to answer
    this.fail(ctx, this.problemFor(ctx, error));
  }

  private problemOutgoing(ctx: RequestContext, problem: Problem): Outgoing {
    return problemOutgoing(problem, ctx.req.headers.accept, ctx.requestId, this.pages);
  }

  /**
   * A deliberate `HttpError` keeps its status and, but for a 500, its detail (`abort(503,
   * 'Back at 5 pm')` is written for the client); anything else is a 500, whose message may
   * hold what no client should read (SPEC §4) and is hidden outside dev.
   */
  private problemFor(ctx: RequestContext, error: unknown): Problem {
    const status = error instanceof HttpError ? error.status : 500;
    if (status >= 500) {
      ctx.failure = error;
      if (this.dev) console.error(error);
    }
    const shown = this.dev || status !== 500;
    const headers = error instanceof HttpError ? error.headers : undefined;
    return {
      status,
      detail: shown ? detailOf(error, status) : GENERIC_500,
      headers: status === 405 ? this.withAllow(ctx, headers) : headers,
      stack: this.dev && error instanceof Error && status >= 500 ? error.stack : undefined,
    };
  }

  /**
   * A 405 must say which methods the path takes (RFC 9110 §15.5.6): one a handler or a
   * middleware throws (`abort(405)`) gets the `Allow` of its path, as the router's own
   * 405 has it, unless it names one itself.
   */
  private withAllow(ctx: RequestContext, headers: Readonly<Record<string, HeaderValue>> = {}): Readonly<Record<string, HeaderValue>> {
    if (Object.keys(headers).some((name) => name.toLowerCase() === 'allow')) return headers;
    const found = this.match('', ctx.path); // no route takes the empty method: the path's methods come back
    return found.kind === 'method-not-allowed' ? { ...headers, allow: allowHeader(found.allow) } : headers;
  }

  /** A streamed body failed after its status went out: the client got a cut connection, the log says why. */
  private logBrokenStream(ctx: RequestContext, status: number, failure: unknown): void {
    const message = `${requestLine(ctx, status)}: the response body failed after its headers were sent: ${described(failure)}`;
    this.log.append(formatLogLine('stream', message, { route: ctx.route?.source, error: failure }));
  }

  private logResponse(ctx: RequestContext, status: number): void {
    const failure = ctx.failure;
    if (failure === undefined) return this.log.append(formatCheckedLine(String(status), requestLine(ctx, status)));
    this.log.append(formatLogLine(String(status), `${requestLine(ctx, status)}: ${described(failure)}`, { route: ctx.route?.source, error: failure }));
  }
}

// Of these parts only the path can hold a line break (a decoded %0A): node's parser
// refuses one in the method and in header values, and so in a forwarded address.
const requestLine = (ctx: RequestContext, status: number): string => `${ctx.method} ${oneLine(ctx.path)} ${status} from ${ctx.ip} (request ${ctx.requestId})`;


/**
 * The dispatcher returns one constant `method-not-allowed` result per set of methods
 * (its `NOT_ALLOWED_*`), so its `Allow` header is joined once per set, not per request.
 */
const allowHeaders = new WeakMap<readonly string[], string>();

function allowHeader(methods: readonly string[]): string {
  let header = allowHeaders.get(methods);
  if (header === undefined) {
    header = methods.join(', ');
    allowHeaders.set(methods, header);
  }
  return header;
}

/**
 * A handler's (or middleware's) value as an answer, which takes what `ctx.header()` set so
 * far: a middleware may still change or drop those (a cache's 304), and whatever is set
 * from here on is the next answer's (addContextHeaders).
 */
function converted(value: unknown, ctx: RequestContext): Outgoing | Promise<Outgoing> {
  const out = toOutgoing(value, ctx);
  ctx.headerValues = null;
  return out;
}

/**
 * What `ctx.header()` set and no answer took yet, on the answer that goes out: set by a
 * middleware after `next()`, or before an error answer or a middleware's own answer,
 * which are made without them. A header the answer has itself wins.
 */
function addContextHeaders(out: Outgoing, values: Readonly<Record<string, HeaderValue>>): void {
  for (const name in values) if (!(name in out.headers)) out.headers[name] = values[name]!;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

function isOutgoing(value: unknown): value is Outgoing {
  return value !== null && typeof value === 'object' && typeof (value as Outgoing).status === 'number' && typeof (value as Outgoing).headers === 'object' && 'body' in value;
}

/**
 * The detail of an error response. Anything may be thrown, and only under `svc tread`
 * is it shown: a value that refuses to become text (no prototype, a throwing `toString`)
 * must not leave the request without an answer.
 */
function detailOf(error: unknown, status: number): string {
  if (error instanceof HttpError) return error.detail ?? statusTitle(status);
  let message: unknown;
  try {
    message = (error as { message?: unknown } | null | undefined)?.message;
  } catch {
    message = undefined; // a throwing getter
  }
  return message !== undefined && message !== null ? textOf(message) : described(error);
}
