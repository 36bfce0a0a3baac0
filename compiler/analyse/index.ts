// analyse: route files → RouteTable, statically (the application is never run).
//
// Pass 1 walks each route file's syntax in source order (walk/); pass 2, once every file
// a string names is in the project, resolves classes and describes handlers (resolve/),
// one route file at a time (file.ts); then the files' parts are joined and the schema
// components named for the whole table (schema/naming.ts). With `incremental`
// (`svc tread`) each file's part is kept, and only the files an edit can reach are
// analysed again (file-cache.ts).
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
//   SVC009  the type's declaration, or the handler when the type has none in the project
//   SVC010/SVC011  syntax errors and missing packages in any application file (sources.ts);
//                  error pages that do not parse or call what they do not have (error-pages.ts)
//   SVC013  the parameter named after another placeholder (param-order.ts); a note gives
//           the registration when the handler is declared elsewhere
// SVC001/SVC002 are whole-table checks (compiler/check/), at the later registration call.
import { join } from 'node:path';
import type { Project } from 'ts-morph';
import type { Diagnostic } from '../diagnostics.ts';
import type { Route, RouteClaim, RouteTable } from '../ir.ts';
import type { SvcConfig } from '../../runtime/config.ts';
import { svcEntry } from '../framework.ts';
import { resolveFile, type FileAnalysis } from './file.ts';
import { FileCache } from './file-cache.ts';
import { readPathAliases } from './path-aliases.ts';
import { forgetProject, projectFor, resolveImportsAgain } from './project.ts';
import { Reporter } from './reporter.ts';
import { checkErrorPages } from './error-pages.ts';
import { checkSources } from './sources.ts';
import { controllerModule, middlewareModule } from './resolve/conventions.ts';
import type { Component } from './schema/registry.ts';
import { nameComponents } from './schema/naming.ts';
import { walkRouteFile, type WalkedFile } from './walk/visit.ts';
import { tooDeep } from './too-deep.ts';

/** The last root's, like the warm project (project.ts): `svc tread` builds one root. */
let cache: FileCache | undefined;

export interface Analysis {
  table: RouteTable;
  diagnostics: Diagnostic[];
  /** Registrations whose handler did not resolve, for the whole-table checks only. */
  unresolved: RouteClaim[];
  /**
   * Absolute paths of the files the analysis read: route files and everything they reach
   * through imports, type-only ones included (a model's type shapes the API document).
   */
  read: string[];
}

export function analyse(root: string, routeFiles: string[], config: SvcConfig, incremental = false): Analysis {
  try {
    return analyseFiles(root, routeFiles, config, incremental);
  } catch (e) {
    // Only the stack's overflow is the input's fault; any other RangeError is the compiler's own.
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    // The warm project and the file cache may hold half of what the overflow cut short.
    cache = undefined;
    forgetProject();
    return { table: { routes: [], files: routeFiles, config, schemas: {} }, diagnostics: [tooDeep(root, routeFiles)], unresolved: [], read: [] };
  }
}

function analyseFiles(root: string, routeFiles: string[], config: SvcConfig, incremental: boolean): Analysis {
  const sources = new Reporter(root);
  const aliases = readPathAliases(root, sources);
  const { project, changed } = projectFor(root, aliases);
  const files = incremental && cache?.root === root ? cache : new FileCache(root);
  // Only a build that keeps its cache needs to know what the next one may reuse.
  if (incremental && files.update(changed, project)) resolveImportsAgain(project);
  cache = incremental ? files : undefined;

  const pending = routeFiles.filter((file) => !files.get(file));
  const walked = pending.map((file) => {
    const reporter = new Reporter(root);
    return { file, reporter, ...walkRouteFile(project.addSourceFileAtPath(join(root, file)), reporter) };
  });
  const named = new Map(walked.map((walk) => [walk.file, namedModules(root, walk)]));
  for (const path of new Set([...named.values()].flat().sort())) addNamedModule(project, path);
  for (const { file, reporter, ...walk } of walked) files.set(file, resolveFile(walk, reporter, project, incremental ? files.handlers : null));
  checkSources(project, sources, aliases);
  checkErrorPages(sources);
  if (incremental) files.noteBuild(project, named, aliases);
  const read = project.getProgram().compilerObject.getSourceFiles().map((file) => file.fileName);
  return { ...assemble(routeFiles.map((file) => files.get(file)!), routeFiles, config, sources.diagnostics), read };
}

/**
 * A string names a path that may not open as a file: a folder, a symlink loop, a name too
 * long for the file system. The project then lacks the module, and the resolver says why at
 * the string (resolve/classes.ts).
 */
function addNamedModule(project: Project, path: string): void {
  try {
    project.addSourceFileAtPathIfExists(path);
  } catch {
    // reported where the class is looked up
  }
}

/** Classes named by string are not imported by the route file that names them, so their modules are added by hand. */
function namedModules(root: string, { registrations, uncounted, middleware }: WalkedFile): string[] {
  const modules: string[] = [];
  for (const { handler } of [...registrations, ...uncounted]) if (handler?.kind === 'name') modules.push(join(root, controllerModule(handler.namespace, handler.className)));
  for (const spec of middleware) if (spec.kind === 'name') modules.push(join(root, middlewareModule(spec.className)), svcEntry);
  return modules;
}

/** The files' parts in route-file order: route ids run on across files, components get their names. */
function assemble(files: FileAnalysis[], routeFiles: string[], config: SvcConfig, sources: Diagnostic[]): Omit<Analysis, 'read'> {
  const routes: Route[] = [];
  const unresolved: RouteClaim[] = [];
  const components = new Map<string, Component>();
  const diagnostics = new Map<string, Diagnostic>(sources.map((diagnostic) => [JSON.stringify(diagnostic), diagnostic]));
  let offset = 0;
  for (const file of files) {
    for (const route of file.routes) routes.push({ ...route, id: route.id + offset });
    for (const claim of file.unresolved) unresolved.push({ ...claim, id: claim.id + offset });
    offset += file.registrations;
    for (const [key, component] of file.components) if (!components.has(key)) components.set(key, component);
    // Two files walking one model report its problems once.
    for (const diagnostic of file.diagnostics) diagnostics.set(JSON.stringify(diagnostic), diagnostic);
  }
  const named = nameComponents(routes, components);
  return { table: { routes: named.routes, files: routeFiles, config, schemas: named.schemas }, diagnostics: [...diagnostics.values()], unresolved };
}
