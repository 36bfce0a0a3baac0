// Middleware specs → IR refs: the class (SVC008 when unknown), its literal JSON
// parameters (SVC006 otherwise) and whether they fit its constructor (SVC008).
import { Node, ts, type ArrayLiteralExpression, type ClassDeclaration, type MethodDeclaration, type ParameterDeclaration, type Type } from 'ts-morph';
import type { MiddlewareRef } from '../../ir.ts';
import { frameworkRuntime, svcEntry } from '../../framework.ts';
import type { MiddlewareSpec } from '../registration.ts';
import { readJsonLiteral } from '../walk/literals.ts';
import { bodyCalls } from '../calls/body-calls.ts';
import { BUILT_IN_PARAMETER_CHECKS } from '../../../runtime/knots/parameter-checks.ts';
import { classFromReference, effectiveConstructor, exportedAs, exportedClass, instanceMethod, isIdentifierName, lineage, type Found } from './classes.ts';
import { absolute, classNamesIn, MIDDLEWARE_FOLDER, middlewareModule, type Resolver } from './conventions.ts';
import { closest } from '../../closest-name.ts';

export function resolveMiddleware(spec: MiddlewareSpec, resolver: Resolver): MiddlewareRef | null {
  const { reporter } = resolver;
  const found = spec.kind === 'reference' ? referenced(spec.classNode, resolver) : named(spec.className, resolver);
  if (!found.ok) {
    const notes = spec.kind === 'name' ? middlewareNameNotes(spec.className, resolver) : [];
    reporter.error('SVC008', `unknown middleware ${found.problem}`, spec.classNode, notes);
    return null;
  }
  const { cls, name: className, module } = found.value;
  if (cls.isAbstract()) {
    reporter.error('SVC008', `${className} is abstract, and the framework creates each middleware once at start-up; use a concrete subclass`, spec.classNode);
    return null;
  }
  const handle = instanceMethod(cls, 'handle');
  if (!handle) {
    reporter.error('SVC008', `${className} is not a middleware: it has no handle(ctx, next) method`, spec.classNode);
    return null;
  }
  if (answersNothing(handle)) {
    reporter.warn('SVC008', `${className}.handle() returns nothing, so every response through it is an empty 204: return next(), or the answer it resolves to`, handle.getNameNode());
  }
  const args = spec.args ? literalArgs(spec.args, resolver) : [];
  if (!args || !argsFit(cls, className, args, spec.args ?? spec.node, resolver)) return null;
  const outOfRange = builtInCheck(cls)?.(args);
  if (outOfRange) {
    reporter.error('SVC008', `${outOfRange}; the knot would refuse to start`, spec.args ?? spec.node);
    return null;
  }
  const errors = [...bodyCalls(handle.compilerNode, resolver.project.getTypeChecker().compilerObject).errors];
  return { className, module, referencedBy: spec.kind, args, loc: reporter.at(spec.node), errors, ...(limitsRate(cls) && { rateLimit: true }) };
}

/** `RateLimitKnots` or a subclass of it: its 429 is thrown from a helper, which the body's calls do not show. */
const limitsRate = (cls: ClassDeclaration): boolean =>
  lineage(cls).some((c) => c.getName() === 'RateLimitKnots' && c.getSourceFile().getFilePath().startsWith(frameworkRuntime));

/**
 * The range check of the built-in knot whose constructor `cls` takes its parameters with:
 * its own, or one it inherits (`class ClockedRateLimit extends RateLimitKnots`).
 */
function builtInCheck(cls: ClassDeclaration): ((args: readonly unknown[]) => string | null) | undefined {
  const owner = effectiveConstructor(cls)?.getParent();
  if (owner === undefined || !owner.getSourceFile().getFilePath().startsWith(frameworkRuntime)) return undefined;
  return BUILT_IN_PARAMETER_CHECKS[owner.getName() ?? ''];
}

/** `handle` declared, or inferred, to return `void` or `Promise<void>` (`await next();` without `return`). */
function answersNothing(handle: MethodDeclaration): boolean {
  const type = handle.getReturnType();
  const settled = type.getSymbol()?.getName() === 'Promise' ? type.getTypeArguments()[0] : type;
  return settled !== undefined && (settled.getFlags() & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) !== 0;
}

interface MiddlewareClass {
  cls: ClassDeclaration;
  /** The name `module` exports it under. */
  name: string;
  /** Project-relative, or `svc` for classes the framework exports. */
  module: string;
}

function referenced(node: Node, resolver: Resolver): Found<MiddlewareClass> {
  const found = classFromReference(node);
  if (!found.ok) return found;
  const { name, path } = exportedAs(node, found.value);
  return { ok: true, value: { cls: found.value, name, module: path.startsWith(frameworkRuntime) ? 'svc' : resolver.reporter.relative(path) } };
}

/** The application's `weave/Middleware/<Name>.ts` first, then the framework's own knots. */
function middlewareNameNotes(className: string, resolver: Resolver): string[] {
  const guess = closest(className, [...classNamesIn(resolver, MIDDLEWARE_FOLDER), ...svcClassNames(resolver)]);
  return guess !== undefined && guess !== className ? [`did you mean '${guess}'?`] : [];
}

/** The classes `'svc'` exports (its knots among them), which a middleware name may mean too. */
function svcClassNames(resolver: Resolver): string[] {
  const exported = resolver.project.getSourceFile(svcEntry)?.getExportedDeclarations() ?? new Map<string, Node[]>();
  return [...exported].filter(([, declarations]) => declarations.some((d) => Node.isClassDeclaration(d))).map(([name]) => name);
}

function named(className: string, resolver: Resolver): Found<MiddlewareClass> {
  if (!isIdentifierName(className)) return { ok: false, problem: `'${className}': not a valid class name` };
  const module = middlewareModule(className);
  const local = exportedClass(resolver.project, absolute(resolver, module), className);
  if (local.ok) return { ok: true, value: { cls: local.value, name: className, module } };
  const builtIn = exportedClass(resolver.project, svcEntry, className);
  if (builtIn.ok) return { ok: true, value: { cls: builtIn.value, name: className, module: 'svc' } };
  return { ok: false, problem: `'${className}': ${module} ${local.problem}, and 'svc' exports no such class` };
}

function literalArgs(list: ArrayLiteralExpression, resolver: Resolver): unknown[] | null {
  const read = readJsonLiteral(list);
  if (read.ok) return read.value as unknown[];
  resolver.reporter.error('SVC006', `middleware parameters must be literal JSON values (strings, numbers, booleans, null, arrays, objects) or a const holding a string, number, boolean or null; found: ${read.at.getText()}`, read.at);
  return null;
}

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** Count against required/total constructor parameters, and the JSON type where one is declared. */
function argsFit(cls: ClassDeclaration, className: string, args: unknown[], at: Node, resolver: Resolver): boolean {
  const params = effectiveConstructor(cls)?.getParameters() ?? [];
  const required = params.filter((p) => !p.isOptional()).length;
  const total = params.some((p) => p.isRestParameter()) ? Infinity : params.length;
  if (args.length < required || args.length > total) {
    const expected = total === Infinity ? `at least ${required}` : required === total ? `${total}` : required === 0 ? `at most ${total}` : `${required} to ${total}`;
    const count = total === Infinity ? required : total;
    const names = params.map((p) => p.getName()).join(', ');
    resolver.reporter.error('SVC008', `${className} takes ${expected} parameter${count === 1 ? '' : 's'}${names ? ` (${names})` : ''} but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`, at);
    return false;
  }
  const elements = Node.isArrayLiteralExpression(at) ? at.getElements() : [];
  let fits = true;
  params.forEach((param, i) => {
    if (i >= args.length) return;
    if (param.isRestParameter()) {
      const itemType = param.getType().getArrayElementType();
      for (const element of elements.slice(i)) if (itemType && !assignable(element, itemType, param, className, resolver)) fits = false;
      return;
    }
    const type = param.getType().getNonNullableType();
    const expected = type.isNumber() ? 'number' : type.isString() ? 'string' : type.isBoolean() ? 'boolean' : null;
    if (expected === null) {
      if (elements[i] && !assignable(elements[i], param.getType(), param, className, resolver)) fits = false;
      return;
    }
    // `number | null`: the null that getNonNullableType() dropped from the check is a value it takes.
    if (typeof args[i] === expected || (args[i] === null && takesNull(param.getType()))) return;
    resolver.reporter.error('SVC008', `parameter '${param.getName()}' of ${className} is a ${expected}, but ${elements[i]?.getText() ?? 'the value'} is ${describe(args[i])}`, elements[i] ?? at);
    fits = false;
  });
  return fits;
}

const takesNull = (type: Type): boolean => type.isNull() || type.getUnionTypes().some((member) => member.isNull());

/** Object shapes, literal unions, arrays: whatever TypeScript itself would accept for the parameter. */
function assignable(element: Node, type: Type, param: ParameterDeclaration, className: string, resolver: Resolver): boolean {
  const checker = element.getProject().getTypeChecker().compilerObject;
  if (checker.isTypeAssignableTo(checker.getTypeAtLocation(element.compilerNode), type.compilerType)) return true;
  const name = `${param.isRestParameter() ? '...' : ''}${param.getName()}`;
  resolver.reporter.error('SVC008', `parameter '${name}' of ${className} is ${type.getText(param)}, but ${element.getText()} does not fit it`, element);
  return false;
}
