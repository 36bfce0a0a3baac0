// Finds the function a route file default-exports, and reads the router parameter of it
// and of group callbacks: the shapes SPEC §2 allows.
import { Node, type ArrowFunction, type FunctionDeclaration, type FunctionExpression, type SourceFile } from 'ts-morph';
import type { Reporter } from '../reporter.ts';
import { unwrap } from './literals.ts';

export type RouterFunction = ArrowFunction | FunctionExpression | FunctionDeclaration;

const SHAPE = 'write `export default (router: Router) => { … }`';

export function findRouteFunction(file: SourceFile, reporter: Reporter): RouterFunction | null {
  // Syntax only (`isDefaultExport()` would build the program before the walk is done).
  const declared = file.getFunctions().find((f) => f.hasExportKeyword() && f.hasDefaultKeyword());
  if (declared) return declared;
  const assignment = file.getExportAssignments().find((a) => !a.isExportEquals());
  const exported = assignment ? unwrap(assignment.getExpression()) : exportedAsDefault(file);
  if (!exported) {
    reporter.error('SVC006', `route file has no default-exported function; ${SHAPE}`, file.getFirstChild() ?? file);
    return null;
  }
  const fn = Node.isIdentifier(exported) ? localFunction(file, exported.getText()) : exported;
  if (fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) || Node.isFunctionDeclaration(fn))) return fn;
  reporter.error('SVC006', `the default export of a route file must be a function taking the router; ${SHAPE}`, exported);
  return null;
}

/** The local name in `export { routes as default };` (not a re-export from another module). */
function exportedAsDefault(file: SourceFile): Node | undefined {
  for (const declaration of file.getExportDeclarations()) {
    if (declaration.hasModuleSpecifier()) continue;
    const specifier = declaration.getNamedExports().find((named) => (named.getAliasNode() ?? named.getNameNode()).getText() === 'default');
    if (specifier) return specifier.getNameNode();
  }
  return undefined;
}

/** `export default routes;` naming a function declared in the same file. */
function localFunction(file: SourceFile, name: string): Node | undefined {
  const initializer = file.getVariableDeclaration(name)?.getInitializer();
  return initializer ? unwrap(initializer) : file.getFunction(name);
}

/**
 * The router parameter's name (`null` when there is none). Async functions and generators
 * are rejected: the runtime replays route files synchronously, so registrations after an
 * `await` would be lost, and a generator's body does not run at all when it is called.
 */
export function routerParameter(fn: RouterFunction, reporter: Reporter): string | null {
  if (fn.isAsync()) reporter.error('SVC006', 'a route function or group callback must not be async: routes are registered synchronously; remove `async`', fn);
  else if (!Node.isArrowFunction(fn) && fn.isGenerator()) {
    reporter.error('SVC006', 'a route function or group callback must not be a generator: calling it would not run its registrations; remove the `*`', fn);
  }
  const first = fn.getParameters().find((p) => p.getName() !== 'this');
  if (!first) return null;
  const name = first.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  reporter.error('SVC006', 'the router parameter must be a plain name, not a destructuring pattern; write `(router) => { router.get(…) }`', name);
  return null;
}

/** The statements to walk, treating an expression body as one statement. */
export function bodyStatements(fn: RouterFunction): Node[] {
  const body = fn.getBody();
  if (!body) return [];
  return Node.isBlock(body) ? body.getStatements() : [body];
}
