// Start-up: replay the route files against `RecordingRouter` and bind registration i to
// the i-th application route of the manifest (ARCHITECTURE: "Route ids and handler
// binding"). Handlers, controller classes and middleware instances are resolved here,
// once, so a request only looks its route up by id.
import type { Context } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';
import { asAnsweredBy } from '../errors/problem.ts';
import type { KnotSetup, Middleware, MiddlewareClass } from '../knots/middleware.ts';
import type { ManifestMiddleware, ManifestRoute } from '../manifest.ts';
import { RecordingRouter, type MiddlewareEntry, type Registration } from '../routing/router.ts';
import type { CompiledApp } from './app.ts';
import type { BuiltinRegistry, BuiltinSetup } from './builtins.ts';
import type { BoundRouteInfo } from './context.ts';
import { StaleBuildError } from './stale-build-error.ts';

type AnyClass = new (...args: any[]) => any;

export interface BoundRoute {
  readonly info: BoundRouteInfo;
  /** Calls the handler with the context and the placeholder values. */
  readonly invoke: (ctx: Context, params: readonly unknown[]) => unknown;
  /** Outer first. */
  readonly middleware: readonly Middleware[];
}

/** Routes indexed by id. */
export async function bindRoutes(app: CompiledApp, builtins: BuiltinRegistry, setup: BuiltinSetup): Promise<BoundRoute[]> {
  const recorder = new RecordingRouter();
  app.routeFiles.forEach((file, i) => {
    if (typeof file !== 'function') throw new StaleBuildError(`${app.manifest.files[i] ?? `Route file ${i}`} has no default-exported function`);
    file(recorder);
  });
  const registrations = recorder.registrations;
  const appRoutes = app.manifest.routes.filter((route) => route.handler.kind !== 'builtin');
  if (registrations.length !== appRoutes.length) {
    throw new StaleBuildError(`The route files register ${registrations.length} routes but the manifest lists ${appRoutes.length}`);
  }

  const knots = new KnotCache(app, { root: setup.root, config: app.manifest.config, dev: setup.dev });
  const routes: Array<BoundRoute | Promise<BoundRoute>> = [];
  let next = 0;
  for (const route of app.manifest.routes) {
    routes[route.id] =
      route.handler.kind === 'builtin'
        ? bindBuiltin(route, route.handler.name, builtins, setup) // their files are read side by side
        : bindRegistration(route, registrations[next++]!, app, knots);
  }
  const bound = await Promise.all(routes);
  await knots.started();
  return bound;
}

function bindRegistration(route: ManifestRoute, registration: Registration, app: CompiledApp, knots: KnotCache): BoundRoute {
  if (registration.method !== route.method || registration.pattern !== route.pattern) {
    throw new StaleBuildError(
      `Route ${route.id} is ${registration.method} ${registration.pattern} in the route files but ${route.method} ${route.pattern} (${route.source}) in the manifest`,
    );
  }
  if (registration.middleware.length !== route.middleware.length) {
    throw new StaleBuildError(`${route.method} ${route.pattern} (${route.source}) has a different middleware list than the manifest`);
  }
  return {
    info: routeInfo(route),
    invoke: bindHandler(route, registration, app),
    // One instance listed by an outer and an inner group (a bare class on both) runs once,
    // where it is first listed: twice, a rate limit would count each request twice.
    middleware: [...new Set(registration.middleware.map((entry, i) => knots.instance(entry, route.middleware[i]!)))],
  };
}

function bindHandler(route: ManifestRoute, registration: Registration, app: CompiledApp): BoundRoute['invoke'] {
  const { handler } = registration;
  const where = `${route.method} ${route.pattern} (${route.source})`;
  if (typeof handler === 'function') {
    if (route.handler.kind !== 'closure') throw new StaleBuildError(`${where} has a closure but the manifest expects a controller`);
    return (ctx, params) => handler.apply(ctx, params as unknown[]);
  }
  if (route.handler.kind !== 'controller') throw new StaleBuildError(`${where} has a controller but the manifest expects a closure`);
  const [classOrName, method] = handler;
  const Controller = typeof classOrName === 'function' ? classOrName : namedClass(app, route.handler.module, route.handler.className, where);
  if (typeof Controller.prototype[method] !== 'function') {
    throw new StaleBuildError(`${where}: controller ${route.handler.className} has no method ${method}`);
  }
  return (ctx, params) => {
    const controller = new Controller() as Record<string, (...args: unknown[]) => unknown> & { ctx: Context };
    controller.ctx = ctx;
    return controller[method]!(...params);
  };
}

/** The compiler appends built-in routes after every group is applied, with no middleware (compiler/config/builtin-routes.ts). */
async function bindBuiltin(route: ManifestRoute, name: keyof BuiltinRegistry, builtins: BuiltinRegistry, setup: BuiltinSetup): Promise<BoundRoute> {
  const factory = builtins[name];
  const endpoint = factory ? await factory(setup) : null;
  return { info: routeInfo(route), invoke: endpoint ? (ctx) => endpoint(ctx) : (ctx) => notServed(ctx), middleware: [] };
}

function notServed(ctx: Context): never {
  throw new HttpError(404, `No route for ${asAnsweredBy(ctx.method)} ${ctx.path}.`);
}

function routeInfo(route: ManifestRoute): BoundRouteInfo {
  return { id: route.id, method: route.method, pattern: route.pattern, paramNames: route.params, source: route.source };
}

/**
 * Middleware instances, constructed once with their parameters. Routes that share a
 * middleware entry (every route of a group) share its instance, and so its state
 * (a rate limit counts the whole group).
 */
class KnotCache {
  private readonly instances = new Map<unknown, Middleware>();

  constructor(
    private readonly app: CompiledApp,
    private readonly setup: KnotSetup,
  ) {}

  /**
   * Runs every knot's optional `start(setup)` hook, one after the other, once all are
   * constructed (started during binding, a failing hook could reject with no one listening).
   */
  async started(): Promise<void> {
    for (const knot of this.instances.values()) await knot.start?.(this.setup);
  }

  instance(entry: MiddlewareEntry, ref: ManifestMiddleware): Middleware {
    // A bare entry is keyed by its class, so `AuthMiddleware` in one group and
    // 'AuthMiddleware' in another share one instance (and one rate-limit count).
    const key = typeof entry === 'string' ? namedClass(this.app, ref.module, ref.className, `middleware ${entry}`) : entry;
    let knot = this.instances.get(key);
    if (!knot) {
      const [classOrName, args] = Array.isArray(entry) ? (entry as readonly [MiddlewareClass | string, readonly unknown[]]) : [key as MiddlewareClass, []];
      const Knot = typeof classOrName === 'function' ? classOrName : namedClass(this.app, ref.module, ref.className, `middleware ${classOrName}`);
      knot = new Knot(...args) as Middleware;
      if (typeof knot.handle !== 'function') throw new TypeError(`Middleware ${ref.className} (${ref.module}) has no handle(ctx, next) method`);
      this.instances.set(key, knot);
    }
    return knot;
  }
}

function namedClass(app: CompiledApp, module: string, className: string, where: string): AnyClass {
  const found = app.classes[`${module}#${className}`];
  if (typeof found !== 'function') throw new StaleBuildError(`${where}: class ${className} from ${module} is not in the build`);
  return found;
}
