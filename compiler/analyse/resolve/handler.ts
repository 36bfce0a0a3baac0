// Handler specs → IR handlers: closures are described where they are declared,
// controller methods are found on the class (SVC004). Non-function handlers are SVC006.
import { Node, SyntaxKind, VariableDeclarationKind, type ArrowFunction, type ClassDeclaration, type FunctionExpression, type Identifier } from 'ts-morph';
import type { DeclaredParam, Handler, HandlerCalls } from '../../ir.ts';
import type { HandlerSpec } from '../registration.ts';
import { handlerCalls } from '../calls/handler-calls.ts';
import { describeHandler, placeholderParameters, type HandlerDescription, type HandlerDeclaration } from '../schema/index.ts';
import { classFromReference, CONTEXT_PROPERTY, effectiveConstructor, exportedAs, exportedClass, functionProperty, instanceMethod, instanceMethodNames, isIdentifierName, isPublic, type Found } from './classes.ts';
import { absolute, classNamesIn, controllerFolder, controllerModule, type Resolver } from './conventions.ts';
import { closest } from '../../closest-name.ts';
import { unwrap } from '../walk/literals.ts';

/** The handlers a route file can write (built-in endpoints come from svc.json). */
export type CodeHandler = Exclude<Handler, { kind: 'builtin' }>;

export function resolveHandler(spec: HandlerSpec, resolver: Resolver): CodeHandler | null {
  return spec.kind === 'closure' ? resolveClosure(spec.node, resolver) : resolveController(spec, resolver);
}

function resolveClosure(node: ArrowFunction | FunctionExpression | Identifier, resolver: Resolver): CodeHandler | null {
  const bound = Node.isIdentifier(node) ? functionBoundTo(node) : { declaration: node };
  if ('problem' in bound) {
    resolver.reporter.error('SVC006', `'${node.getText()}' ${bound.problem}`, node);
    return null;
  }
  const { declaration } = bound;
  const thisParameter = Node.isArrowFunction(declaration) ? declaration.getParameter('this') : undefined;
  if (thisParameter) {
    // TypeScript refuses it too (TS2730), and the bundler with a message about binding patterns.
    resolver.reporter.error('SVC003', "an arrow function has no `this` of its own, so it cannot take the request context as `this`; write `function (this: Context, …) { … }` instead", thisParameter);
    return null;
  }
  return { kind: 'closure', loc: resolver.reporter.at(declaration), ...declared(declaration, describeHandler(declaration, resolver.registry), resolver) };
}

/** The description with each parameter's place and the calls of the body, kept out of describeHandler so that its snapshots hold types alone. */
function declared(declaration: HandlerDeclaration, described: HandlerDescription, { reporter, registry }: Resolver): HandlerDescription & { params: DeclaredParam[]; calls: HandlerCalls } {
  const nodes = placeholderParameters(declaration);
  return { ...described, params: described.params.map((p, i) => ({ ...p, loc: reporter.at(nodes[i]!) })), calls: handlerCalls(declaration, registry) };
}

/**
 * The function an identifier names: `function home() {}`, `const home = () => …`, or a
 * module's default export (`export default function …`, `export default home`), imported
 * or local. A `let` or `var` is refused: the build would read the function it starts with,
 * and the runtime call whatever it holds by then.
 */
function functionBoundTo(identifier: Node): { declaration: HandlerDeclaration } | { problem: string } {
  const symbol = identifier.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  for (const declaration of target?.getDeclarations() ?? []) {
    if (Node.isFunctionDeclaration(declaration)) return { declaration };
    if (Node.isExportAssignment(declaration)) {
      const exported = unwrap(declaration.getExpression());
      if (Node.isArrowFunction(exported) || Node.isFunctionExpression(exported)) return { declaration: exported };
      if (Node.isIdentifier(exported)) return functionBoundTo(exported);
    }
    const initializer = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
    const fn = initializer && unwrap(initializer);
    if (fn && (Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) {
      const kind = declaration.getFirstAncestorByKind(SyntaxKind.VariableDeclarationList)?.getDeclarationKind();
      if (kind === VariableDeclarationKind.Const) return { declaration: fn };
      return { problem: `is declared with \`${kind}\`: svc build reads the function it starts with, but a request calls whatever it holds by then; declare it \`const\`` };
    }
  }
  return { problem: "is not a function declared in the project; a route handler must be a closure, [Controller, 'method'] or ['Controller', 'method']" };
}

function resolveController(spec: Exclude<HandlerSpec, { kind: 'closure' }>, resolver: Resolver): CodeHandler | null {
  const { reporter } = resolver;
  const found = spec.kind === 'reference' ? classFromReference(spec.classNode) : classByName(spec.namespace, spec.className, resolver);
  if (!found.ok) {
    const notes = spec.kind === 'name' ? controllerNameNotes(spec.namespace, spec.className, resolver) : [];
    reporter.error('SVC004', `unknown controller class ${found.problem}`, spec.classNode, notes);
    return null;
  }
  const cls = found.value;
  const methodName = spec.method.getLiteralValue();
  // A string name is imported from its conventional file, which may export the class
  // under an alias (`export { UserController as Members }`) its declaring file lacks.
  const exported = spec.kind === 'name' ? { name: spec.className, path: absolute(resolver, controllerModule(spec.namespace, spec.className)) } : exportedAs(spec.classNode, cls);
  const classFile = cls.getSourceFile().getFilePath();
  // The class as the files spell it: the same in the next build's program when the file is unchanged.
  const key = [spec.kind, exported.name, exported.path, `${classFile}:${cls.getStart()}`, methodName].join(' ');
  const reused = resolver.handlers?.reuse(key);
  if (reused) return reused;
  let unfit = resolver.unfit.get(cls);
  if (unfit === undefined) resolver.unfit.set(cls, (unfit = uninstantiable(cls)));
  if (unfit !== null) {
    reporter.error('SVC004', `controller ${cls.getName()} ${unfit}`, spec.classNode);
    return null;
  }
  if (methodName === CONTEXT_PROPERTY) {
    reporter.error('SVC004', `method '${CONTEXT_PROPERTY}' of controller ${cls.getName()} cannot handle a route: the framework sets \`${CONTEXT_PROPERTY}\` on every controller to the request context, which hides the method; rename it`, spec.method);
    return null;
  }
  const method = instanceMethod(cls, methodName);
  if (method && !isPublic(method)) {
    reporter.error('SVC004', `method '${methodName}' of controller ${cls.getName()} is not public; the framework calls it from outside the class, so make it public`, spec.method);
    return null;
  }
  if (!method) {
    const names = instanceMethodNames(cls);
    const notes = [names.length ? `methods of ${cls.getName()}: ${names.join(', ')}` : `${cls.getName()} has no instance methods`];
    if (functionProperty(cls, methodName)) notes.unshift(`'${methodName}' is a property holding a function; write it as a method, ${methodName}(…) { … }`);
    reporter.error('SVC004', `controller ${cls.getName()} has no method '${methodName}'; add it or use one of its methods`, spec.method, notes);
    return null;
  }
  const handler: CodeHandler = {
    kind: 'controller',
    className: exported.name,
    method: methodName,
    module: reporter.relative(exported.path),
    referencedBy: spec.kind,
    loc: reporter.at(method),
    ...declared(method, describeHandler(method, resolver.registry, { cls, key: methodName }), resolver),
  };
  resolver.handlers?.describe({ key, classFile, handler });
  return handler;
}

/** Why the framework, which creates a controller per request with no arguments (SPEC §2), cannot; `null` when it can. */
function uninstantiable(cls: ClassDeclaration): string | null {
  if (cls.isAbstract()) return 'is abstract, and the framework creates an instance per request; route to a concrete subclass';
  const required = effectiveConstructor(cls)?.getParameters().filter((p) => !p.isOptional()) ?? [];
  if (required.length === 0) return null;
  const names = required.map((p) => p.getName()).join(', ');
  return `needs constructor arguments (${names}), but the framework creates controllers with none; give ${required.length === 1 ? 'it a default' : 'them defaults'} or build what they provide inside the class`;
}

function controllerNameNotes(namespace: string, className: string, resolver: Resolver): string[] {
  const guess = closest(className, classNamesIn(resolver, controllerFolder(namespace)));
  const meant = guess !== undefined && guess !== className ? [`did you mean '${guess}' (${controllerModule(namespace, guess)})?`] : [];
  return [...meant, 'class names given as strings resolve to weave/Controllers/<namespace>/<ClassName>.ts'];
}

function classByName(namespace: string, className: string, resolver: Resolver): Found<ClassDeclaration> {
  if (!isIdentifierName(className)) return { ok: false, problem: `'${className}': not a valid class name` };
  const module = controllerModule(namespace, className);
  const found = exportedClass(resolver.project, absolute(resolver, module), className);
  return found.ok ? found : { ok: false, problem: `'${className}': ${module} ${found.problem}` };
}
