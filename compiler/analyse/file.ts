// One route file's part of the table, once its registrations are walked and every name
// they use is in the project: its routes (ids counted within the file), the components
// their schemas reach (by key, named later for the whole table) and every problem found
// on the way. Plain data, so `svc tread` can keep it while nothing it depends on changes.
import type { Project } from 'ts-morph';
import type { Diagnostic } from '../diagnostics.ts';
import type { HandlerCache } from './handler-cache.ts';
import type { Route, RouteClaim } from '../ir.ts';
import type { Reporter } from './reporter.ts';
import type { Resolver } from './resolve/conventions.ts';
import { resolveMiddleware } from './resolve/middleware.ts';
import { checkedHandler, toRoute, unresolvedClaim } from './route.ts';
import { SchemaRegistry } from './schema/index.ts';
import type { Component } from './schema/registry.ts';
import type { WalkedFile } from './walk/visit.ts';

export interface FileAnalysis {
  /** Registration calls in the file, broken ones included: the runtime counts them all. */
  registrations: number;
  /** Ids are positions among the file's registrations; `analyse` offsets them. */
  routes: Route[];
  /** Registrations left out of `routes` for their handler alone: the checks still see their paths. */
  unresolved: RouteClaim[];
  components: ReadonlyMap<string, Component>;
  diagnostics: Diagnostic[];
}

/** `cache`: `svc tread`'s handlers from earlier builds, which this file's analysis adds to when it finds no problem. */
export function resolveFile(walked: WalkedFile, reporter: Reporter, project: Project, cache: HandlerCache | null): FileAnalysis {
  const registry = new SchemaRegistry(reporter);
  const handlers = cache?.forFile() ?? null;
  const resolver: Resolver = { root: reporter.root, project, reporter, registry, unfit: new Map(), handlers };
  const middleware = new Map(walked.middleware.map((spec) => [spec, resolveMiddleware(spec, resolver)]));
  const routes: Route[] = [];
  const unresolved: RouteClaim[] = [];
  walked.registrations.forEach((registration, id) => {
    const route = toRoute(id, registration, resolver, middleware);
    const claim = route ? null : unresolvedClaim(id, registration, reporter);
    if (route) routes.push(route);
    else if (claim) unresolved.push(claim);
  });
  for (const registration of walked.uncounted) checkedHandler(registration, resolver);
  if (handlers && reporter.diagnostics.length === 0) handlers.keep(registry.components);
  const components = handlers ? new Map([...handlers.components, ...registry.components]) : registry.components;
  return { registrations: walked.registrations.length, routes, unresolved, components, diagnostics: reporter.diagnostics };
}
