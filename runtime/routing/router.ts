// The API route files are written against. `svc build` reads these calls statically;
// at start-up the runtime replays them once with `RecordingRouter` to pick up the
// actual closures and classes, in the same order the compiler numbered them.
import type { Context } from '../context.ts';
import type { MiddlewareClass } from '../knots/middleware.ts';
import { joinNamespace, joinPattern } from './pattern.ts';

export type Closure = (this: Context, ...params: any[]) => unknown;
export type ControllerClass = new () => object;
export type Handler = Closure | readonly [ControllerClass | string, string];

export type MiddlewareEntry =
  | MiddlewareClass
  | string
  | readonly [MiddlewareClass | string, readonly unknown[]];

export interface GroupOptions {
  prefix?: string;
  middleware?: readonly MiddlewareEntry[];
  namespace?: string;
}

type Register = (pattern: string, handler: Handler) => void;

export interface Router {
  get: Register;
  post: Register;
  put: Register;
  patch: Register;
  delete: Register;
  options: Register;
  sewGet: Register;
  sewPost: Register;
  sewPut: Register;
  sewPatch: Register;
  sewDelete: Register;
  sewOptions: Register;
  group(options: GroupOptions, callback: (router: Router) => void): void;
}

export type RouteFile = (router: Router) => void;

export interface Registration {
  method: string;
  pattern: string;
  handler: Handler;
  middleware: MiddlewareEntry[];
  namespace: string;
}

export class RecordingRouter implements Router {
  readonly registrations: Registration[] = [];

  constructor(
    private readonly prefix = '',
    private readonly middleware: MiddlewareEntry[] = [],
    private readonly namespace = '',
    sink: Registration[] | null = null,
  ) {
    if (sink) this.registrations = sink;
  }

  private add(method: string, pattern: string, handler: Handler): void {
    this.registrations.push({
      method,
      pattern: joinPattern(this.prefix, pattern),
      handler,
      middleware: [...this.middleware],
      namespace: this.namespace,
    });
  }

  get: Register = (p, h) => this.add('GET', p, h);
  post: Register = (p, h) => this.add('POST', p, h);
  put: Register = (p, h) => this.add('PUT', p, h);
  patch: Register = (p, h) => this.add('PATCH', p, h);
  delete: Register = (p, h) => this.add('DELETE', p, h);
  options: Register = (p, h) => this.add('OPTIONS', p, h);
  sewGet = this.get;
  sewPost = this.post;
  sewPut = this.put;
  sewPatch = this.patch;
  sewDelete = this.delete;
  sewOptions = this.options;

  group(options: GroupOptions, callback: (router: Router) => void): void {
    const inner = new RecordingRouter(
      joinPattern(this.prefix, options.prefix ?? ''),
      [...this.middleware, ...(options.middleware ?? [])],
      joinNamespace(this.namespace, options.namespace ?? ''),
      this.registrations,
    );
    callback(inner);
  }
}
