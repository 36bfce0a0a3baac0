// analyse: route files → RouteTable, statically (the application is never run).
//
// Pass 1 walks each route file's syntax in source order (walk/); pass 2, once every file
// a string names is in the project, resolves classes and describes handlers (resolve/).
//
// Where each problem is reported (1-based line:col of the node's first character):
//   SVC003  the handler argument in the route file; a note gives the declaration when elsewhere
//   SVC004  the class reference or class-name string; the method string for unknown methods
//   SVC005  the pattern string (or the group's prefix string) that has the problem
//   SVC006  the offending node: a non-literal argument or option, the registration call
//           inside a loop/condition/try/nested function, the call handing the router on,
//           the default export (or the file's first statement when there is none)
//   SVC008  the middleware entry's class or name; a count mismatch at the parameter
//           array; a type mismatch at the parameter itself
// SVC001/SVC002 are whole-table checks (compiler/check/), at the later registration call.
import { join } from 'node:path';
import type { Project } from 'ts-morph';
import type { Diagnostic } from '../diagnostics.ts';
import type { RouteTable } from '../ir.ts';
import type { SvcConfig } from '../../runtime/config.ts';
import { svcEntry } from '../framework.ts';
import { projectFor } from './project.ts';
import type { MiddlewareSpec, Registration } from './registration.ts';
import { Reporter } from './reporter.ts';
import { controllerModule, middlewareModule, type Resolver } from './resolve/conventions.ts';
import { resolveMiddleware } from './resolve/middleware.ts';
import { toRoute } from './route.ts';
import { SchemaRegistry } from './schema/index.ts';
import { walkRouteFile } from './walk/visit.ts';

export function analyse(root: string, routeFiles: string[], config: SvcConfig): { table: RouteTable; diagnostics: Diagnostic[] } {
  const reporter = new Reporter(root);
  const project = projectFor(root);
  const walked = routeFiles.map((file) => walkRouteFile(project.addSourceFileAtPath(join(root, file)), reporter));
  const registrations = walked.flatMap((w) => w.registrations);
  const middlewareSpecs = walked.flatMap((w) => w.middleware);
  addNamedModules(project, root, registrations, middlewareSpecs);

  const registry = new SchemaRegistry(root);
  const resolver: Resolver = { root, project, reporter, registry };
  const middleware = new Map(middlewareSpecs.map((spec) => [spec, resolveMiddleware(spec, resolver)]));
  const routes = registrations.flatMap((registration, id) => toRoute(id, registration, resolver, middleware) ?? []);
  return {
    table: { routes, files: routeFiles, config, schemas: registry.schemas },
    diagnostics: [...reporter.diagnostics, ...registry.diagnostics],
  };
}

/** Classes named by string are not imported by any route file, so their modules are added by hand. */
function addNamedModules(project: Project, root: string, registrations: Registration[], middleware: MiddlewareSpec[]): void {
  const modules = new Set<string>();
  for (const { handler } of registrations) if (handler?.kind === 'name') modules.add(join(root, controllerModule(handler.namespace, handler.className)));
  for (const spec of middleware) if (spec.kind === 'name') modules.add(join(root, middlewareModule(spec.className))).add(svcEntry);
  for (const path of [...modules].sort()) project.addSourceFileAtPathIfExists(path);
}
