// The route-table IR: the plain data that flows discover → analyse → check → emit.
// Nothing here holds a ts-morph node, so every phase after analyse is a pure
// function of JSON-serialisable values (and the manifest is this IR, written out).
import type { JsonSchema } from './json-schema.ts';
import type { SvcConfig } from '../runtime/config.ts';

/** A point in a project file: path relative to the project root, 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * How the dispatcher turns a placeholder's text into the handler's argument.
 * Derived from the handler parameter's declared type; `string` costs nothing.
 */
export type ParamKind =
  | { kind: 'string' }
  /** `values`: a union of number literals (`1 | 2`), which only those values fit. */
  | { kind: 'number'; values?: number[] }
  /** `values`: the one literal a `true` or `false` type allows. */
  | { kind: 'boolean'; values?: [boolean] }
  | { kind: 'enum'; values: string[] };

export type Segment =
  | { kind: 'literal'; value: string }
  | { kind: 'param'; name: string; optional: boolean; type: ParamKind };

export interface HandlerParam {
  name: string;
  optional: boolean; // `x?: T` or `x = default`
  schema: JsonSchema; // from the declared type; `{}` when unknown
  /** How a placeholder bound to this parameter is converted at request time; `null` when none can be (SVC003). */
  kind: ParamKind | null;
  /** The declared type as written, for messages. */
  typeText: string;
}

/** A parameter of a route's handler, with where it is declared: a diagnostic about one parameter points at it (SVC013). */
export interface DeclaredParam extends HandlerParam {
  loc: SourceLocation;
}

export interface HandlerDoc {
  summary?: string;
  description?: string;
  /** A `@deprecated` tag: the operation is marked deprecated. */
  deprecated?: true;
}

/**
 * The answers a handler's return value can become (SPEC §4, runtime/http/convert.ts),
 * read from its return type, awaited: one field per answer some member of the type
 * leads to. No field at all means the handler never returns (`never`).
 */
export interface ReturnCases {
  /** The string members: sent as 200 `text/html`. */
  html?: JsonSchema;
  /** Objects, arrays, numbers, booleans: sent as 200 `application/json`. */
  json?: JsonSchema;
  /** `Buffer`, typed arrays, `DataView`, `ArrayBuffer`: sent as 200 `application/octet-stream`. */
  bytes?: true;
  /** A `Blob` or `File`: sent as 200 with the blob's own type. */
  blob?: true;
  /** `null`, `undefined`, `void`: 204 without a body. */
  empty?: true;
  /** A web `Response`, or `any`/`unknown`: the status and the body are the handler's own. */
  opaque?: true;
}

/**
 * What a handler's own function body asks of the request context and answers besides
 * its return value, read from the calls written in it (compiler/analyse/calls/): a
 * function it calls is not read.
 */
export interface HandlerCalls {
  /** The request bodies it reads: none when it reads no body. */
  body: RequestBodies;
  /** Query parameters read by a literal name (`query.get('page')`), in source order, once each. */
  query: QueryParam[];
  /** Literal `status(n)` codes, in source order, once each: its data is answered with these instead of 200. */
  statuses: number[];
  /**
   * One of them is set whichever way the body's branches go (early returns aside, as for
   * `RequestBodies.optional`): then returning nothing is answered with it, not with 204.
   */
  statusAlways?: true;
  /** Literal statuses of `new HttpError(n, …)` and `abort(n, …)`, in source order, once each. */
  errors: number[];
}

/** One field per way the handler reads the body (`json()`, `form()`, `text()`). */
export interface RequestBodies {
  /** The schema of `T` in `json<T>()`, given or inferred; `{}` for `unknown`. */
  json?: JsonSchema;
  /** `form()`: urlencoded or multipart. */
  form?: true;
  /** `text()`. */
  text?: true;
  /** Read in some branches only (`this.body.length ? this.json() : null`): a request may come without one. */
  optional?: true;
}

export interface QueryParam {
  name: string;
  /** Read with `getAll`: every value it is given, not only the first. */
  repeated: boolean;
}

export type Handler =
  | {
      kind: 'closure';
      loc: SourceLocation;
      params: DeclaredParam[];
      returns: ReturnCases;
      doc: HandlerDoc;
      calls: HandlerCalls;
    }
  | {
      kind: 'controller';
      className: string;
      method: string;
      /** Project-relative module that exports the class, e.g. `weave/Controllers/Admin/UserController.ts`. */
      module: string;
      /** How the route file named the class: a reference (imported) or a string resolved by the compiler. */
      referencedBy: 'reference' | 'name';
      loc: SourceLocation; // the method declaration
      params: DeclaredParam[];
      returns: ReturnCases;
      doc: HandlerDoc;
      calls: HandlerCalls;
    }
  | {
      /** A framework endpoint (SPEC §8) added from svc.json; not in OpenAPI or metrics. */
      kind: 'builtin';
      name: 'docs' | 'docs-asset' | 'health' | 'dashboard' | 'metrics';
    };

export interface MiddlewareRef {
  className: string;
  /** Project-relative module, or `svc` for the built-in knots. */
  module: string;
  referencedBy: 'reference' | 'name';
  /** Constructor arguments: literal JSON values from `[Class, [args…]]`. */
  args: unknown[];
  loc: SourceLocation;
  /** Literal statuses its `handle` method throws, as a handler's (`HandlerCalls.errors`). */
  errors: number[];
  /** A `RateLimitKnots`, or a subclass: it may answer 429, and sets the rate-limit headers on what passes. */
  rateLimit?: true;
}

export interface Route {
  /** Registration order across route files (sorted by path); the runtime binds handlers by it. */
  id: number;
  method: HttpMethod;
  /** Normalised full pattern after group prefixes, e.g. `/admin/users/{id}`. */
  pattern: string;
  segments: Segment[];
  handler: Handler;
  /** Outer group first, then inner, then the route's own. */
  middleware: MiddlewareRef[];
  /** Route file, e.g. `routes/api.ts`. */
  file: string;
  /** Concatenated group prefixes, `''` outside any group (for OpenAPI tags). */
  prefix: string;
  loc: SourceLocation;
}

/**
 * What the whole-table checks (SVC001, SVC002, SVC007) need of a route: the paths it
 * claims and where it is registered. A registration whose handler did not resolve still
 * claims its paths, so its duplicates are reported in the same run.
 */
export type RouteClaim = Pick<Route, 'id' | 'method' | 'pattern' | 'segments' | 'loc'> & { handler: Handler | null };

export interface RouteTable {
  routes: Route[];
  /** Route files in the order the runtime must run them. */
  files: string[];
  config: SvcConfig;
  /** Named types referenced from handler schemas with `$ref: '#/components/schemas/<name>'`. */
  schemas: Record<string, JsonSchema>;
}
