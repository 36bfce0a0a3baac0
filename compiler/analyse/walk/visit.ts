// The syntactic walk of one route file, in source order: the order the runtime runs the
// calls in, so registration *i* here is route id *i* there. One visitor per statement
// kind; any other statement may not touch a router (SVC006).
import { Node, SyntaxKind, type CallExpression, type SourceFile } from 'ts-morph';
import type { HttpMethod } from '../../ir.ts';
import { joinNamespace, joinPattern } from '../../../runtime/routing/pattern.ts';
import { splitPattern, wholePatternProblems } from '../pattern.ts';
import type { GroupScope, MiddlewareSpec, Registration } from '../registration.ts';
import type { Reporter } from '../reporter.ts';
import { asStringLiteral, propertyName, unwrap } from './literals.ts';
import { rejectRouterUses } from './non-static.ts';
import { declares } from './scopes.ts';
import { bodyStatements, findRouteFunction, routerParameter, type RouterFunction } from './route-function.ts';
import { readHandlerSpec, readMiddlewareSpec } from './specs.ts';

const VERBS: Record<string, HttpMethod> = {
  get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', options: 'OPTIONS',
  sewGet: 'GET', sewPost: 'POST', sewPut: 'PUT', sewPatch: 'PATCH', sewDelete: 'DELETE', sewOptions: 'OPTIONS',
};

/** The method a router member registers, if it is a registration (`router.toString` is none, though the object inherits it). */
const verb = (member: string): HttpMethod | undefined => (Object.hasOwn(VERBS, member) ? VERBS[member] : undefined);

/**
 * Names in scope that reach a router, each with the group it registers into; `null` for
 * `arguments` of a route function or group callback written as a `function`, which holds
 * the router but registers nothing svc build can count.
 */
type Routers = ReadonlyMap<string, GroupScope | null>;

interface Walk {
  reporter: Reporter;
  registrations: Registration[];
  /** Registrations svc build cannot count (SVC006), read only for their own problems. */
  uncounted: Registration[];
  /** Every group's own entries, so those of groups without routes are checked too. */
  middleware: MiddlewareSpec[];
}

export interface WalkedFile {
  registrations: Registration[];
  uncounted: Registration[];
  middleware: MiddlewareSpec[];
}

type Visitor = (node: Node, routers: Routers, walk: Walk) => void;

const TOP_LEVEL: GroupScope = { prefix: '', namespace: '', middleware: [], broken: false, openPrefix: false };

export function walkRouteFile(file: SourceFile, reporter: Reporter): WalkedFile {
  const walk: Walk = { reporter, registrations: [], uncounted: [], middleware: [] };
  const fn = findRouteFunction(file, reporter);
  if (fn) visitFunction(fn, new Map(), TOP_LEVEL, walk);
  return { registrations: walk.registrations, uncounted: walk.uncounted, middleware: walk.middleware };
}

function visitFunction(fn: RouterFunction, outer: Routers, scope: GroupScope, walk: Walk): void {
  const name = routerParameter(fn, walk.reporter);
  const routers = new Map(outer);
  if (!Node.isArrowFunction(fn)) routers.set('arguments', null);
  if (name) routers.set(name, scope);
  // Default values run with the call, before the body: `(router, x = router.get(…))` registers too.
  for (const parameter of fn.getParameters()) {
    const initializer = parameter.getInitializer();
    if (initializer) rejectStatement(initializer, routers, walk);
  }
  visitStatements(bodyStatements(fn), routers, walk);
}

function visitStatements(statements: Node[], routers: Routers, walk: Walk): void {
  for (const statement of statements) (VISITORS[statement.getKind()] ?? rejectStatement)(statement, routers, walk);
}

/**
 * A statement that is no plain registration: each router use in it is SVC006, and each
 * registration call is still read, uncounted, so that its handler's problems are
 * reported in the same run (a handler without parameters on `/z/{a}` is wrong anyway).
 */
const rejectStatement: Visitor = (node, routers, walk) => {
  for (const call of rejectRouterUses(node, new Set(routers.keys()), walk.reporter)) {
    const target = routerCall(call, routers);
    const method = target ? verb(target.member) : undefined;
    if (!target || !method) continue;
    // Its arguments were in the statement just searched: their router uses are reported already.
    const registration = readRegistration(call, method, target.scope, walk.reporter);
    if (registration) walk.uncounted.push(registration);
  }
};

const visitExpression: Visitor = (node, routers, walk) => {
  const expression = unwrap(node);
  const target = Node.isCallExpression(expression) ? routerCall(expression, routers) : null;
  if (!target) return rejectStatement(expression, routers, walk);
  const { call, member, scope } = target;
  if (member === 'group') return visitGroup(call, scope, routers, walk);
  const method = verb(member);
  if (method) return visitRegistration(call, method, scope, routers, walk);
  walk.reporter.error('SVC006', `router.${member} is not a registration method; use get, post, put, patch, delete, options, their sew… forms, or group`, call);
};

const VISITORS: Partial<Record<SyntaxKind, Visitor>> = {
  [SyntaxKind.ExpressionStatement]: (node, routers, walk) => visitExpression(node.asKindOrThrow(SyntaxKind.ExpressionStatement).getExpression(), routers, walk),
  [SyntaxKind.Block]: (node, routers, walk) => visitStatements(node.asKindOrThrow(SyntaxKind.Block).getStatements(), inScope(routers, node), walk),
  [SyntaxKind.EmptyStatement]: () => {},
  // An expression body (`(r) => r.get(…)`) arrives as the expression itself.
  [SyntaxKind.CallExpression]: visitExpression,
  [SyntaxKind.ParenthesizedExpression]: visitExpression,
};

/** The routers still reachable inside `block`: a `const router = …` of its own names another value. */
function inScope(routers: Routers, block: Node): Routers {
  const hidden = [...routers.keys()].filter((name) => declares(block, name));
  if (hidden.length === 0) return routers;
  const inner = new Map(routers);
  for (const name of hidden) inner.delete(name);
  return inner;
}

/** `<router>.<member>(…)` on a router in scope. */
function routerCall(call: CallExpression, routers: Routers): { call: CallExpression; member: string; scope: GroupScope } | null {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return null;
  const scope = routers.get(unwrap(callee.getExpression()).getText());
  return scope ? { call, member: callee.getName(), scope } : null;
}

function visitRegistration(call: CallExpression, method: HttpMethod, scope: GroupScope, routers: Routers, walk: Walk): void {
  const registration = readRegistration(call, method, scope, walk.reporter);
  if (!registration) return;
  // A closure runs per request, long after the routes are counted: it may not register more.
  rejectStatement(call.getArguments()[1]!, routers, walk);
  walk.registrations.push(registration);
}

function readRegistration(call: CallExpression, method: HttpMethod, scope: GroupScope, reporter: Reporter): Registration | null {
  const [patternArg, handlerArg] = call.getArguments();
  if (!patternArg || !handlerArg) {
    reporter.error('SVC006', `a route registration takes a pattern and a handler, as in router.get('/users/{id}', handler)`, call);
    return null;
  }
  // Express writes `router.get('/x', auth, handler)`: served as it stands, `auth` would
  // answer and the handler would never run, so any argument past the handler is refused.
  const extra = call.getArguments()[2];
  if (extra) reporter.error('SVC006', `a route registration takes a pattern and a handler, nothing more (middleware goes in a group's options, as in router.group({ middleware: [Auth] }, (r) => { … })); found: ${extra.getText()}`, extra);
  const literal = asStringLiteral(patternArg);
  if (!literal) reporter.error('SVC006', `the route pattern must be a string literal so svc build can read it; found: ${patternArg.getText()}`, patternArg);
  const own = literal?.getLiteralValue();
  const pattern = own === undefined ? '' : joinPattern(scope.prefix, own);
  const problems = literal ? patternProblems(literal.getLiteralValue(), pattern, literal, reporter) : 1;
  const arity = problems ? null : scope.openPrefix ? { pattern: own!, exact: false } : { pattern, exact: true };
  return { method, call, pattern, patternValid: problems === 0 && !scope.broken, arity, handler: readHandlerSpec(handlerArg, scope, reporter), scope };
}

/**
 * Reports SVC005 for the route's own text, then for the full pattern (names repeated
 * across the prefix, an optional placeholder not last), over the segments that parsed;
 * returns how many.
 */
function patternProblems(own: string, full: string, at: Node, reporter: Reporter): number {
  const { problems: ownProblems, warnings } = splitPattern(own);
  const wholeProblems = wholePatternProblems(splitPattern(full).segments);
  for (const problem of ownProblems) reporter.error('SVC005', `invalid pattern '${own}': ${problem}`, at);
  for (const text of warnings) reporter.warn('SVC005', `pattern '${own}': ${text}`, at);
  for (const problem of wholeProblems) reporter.error('SVC005', `invalid pattern '${full}': ${problem}`, at);
  return ownProblems.length + wholeProblems.length;
}

function visitGroup(call: CallExpression, outer: GroupScope, routers: Routers, walk: Walk): void {
  const [optionsArg, callbackArg, extra] = call.getArguments();
  if (extra) walk.reporter.error('SVC006', `router.group takes an options object and a callback, nothing more; found: ${extra.getText()}`, extra);
  const scope = optionsArg ? readGroupOptions(optionsArg, outer, walk) : outer;
  const callback = callbackArg && unwrap(callbackArg);
  if (callback && (Node.isArrowFunction(callback) || Node.isFunctionExpression(callback))) {
    visitFunction(callback, routers, scope, walk);
    return;
  }
  walk.reporter.error('SVC006', 'router.group takes an options object and an inline callback, as in router.group({ prefix: \'/admin\' }, (r) => { … })', callback ?? call);
}

/** A folder of a namespace: never `.` or `..`, so a class name cannot leave weave/Controllers/. */
const NAMESPACE_FOLDER = /^[A-Za-z0-9_-]+$/;

function readGroupOptions(node: Node, outer: GroupScope, walk: Walk): GroupScope {
  const { reporter } = walk;
  const options = unwrap(node);
  const scope: GroupScope = { ...outer, middleware: [...outer.middleware] };
  const reject = (text: string, at: Node): GroupScope => {
    reporter.error('SVC006', text, at);
    scope.broken = true;
    return scope;
  };
  // Options svc build cannot read may hold the prefix.
  const unreadable = (text: string, at: Node): GroupScope => {
    scope.openPrefix = true;
    return reject(text, at);
  };
  if (!Node.isObjectLiteralExpression(options)) return unreadable('group options must be an object literal, as in { prefix: \'/admin\', middleware: [AuthMiddleware] }', options);
  for (const property of options.getProperties()) {
    const key = Node.isPropertyAssignment(property) ? propertyName(property.getNameNode()) : null;
    if (!Node.isPropertyAssignment(property) || key === null) {
      unreadable('each group option must be written `key: value` with a literal value', property);
      continue;
    }
    const value = unwrap(property.getInitializerOrThrow());
    if (key === 'middleware') {
      if (!Node.isArrayLiteralExpression(value)) reject('group middleware must be an array literal of classes, names or [ClassOrName, [params…]]', value);
      else {
        const own = readMiddlewareList(value.getElements(), reporter);
        scope.middleware.push(...own);
        walk.middleware.push(...own);
      }
      continue;
    }
    if (key !== 'prefix' && key !== 'namespace') {
      reject(`unknown group option '${key}'; the options are prefix, middleware and namespace`, property);
      continue;
    }
    const literal = asStringLiteral(value);
    if (!literal) {
      (key === 'prefix' ? unreadable : reject)(`the group ${key} must be a string literal so svc build can read it; found: ${value.getText()}`, value);
    } else if (key === 'namespace') {
      const bad = literal.getLiteralValue().split(/[\\/]/).find((folder) => folder !== '' && !NAMESPACE_FOLDER.test(folder));
      if (bad !== undefined) {
        reporter.error('SVC005', `invalid namespace '${literal.getLiteralValue()}': '${bad}' is not a folder name; a namespace names folders under weave/Controllers/ (ASCII letters, digits, '_' and '-')`, literal);
        scope.broken = true;
      }
      scope.namespace = joinNamespace(outer.namespace, literal.getLiteralValue());
    } else {
      const { problems, warnings } = splitPattern(literal.getLiteralValue());
      for (const problem of problems) reporter.error('SVC005', `invalid prefix '${literal.getLiteralValue()}': ${problem}`, literal);
      for (const text of warnings) reporter.warn('SVC005', `prefix '${literal.getLiteralValue()}': ${text}`, literal);
      if (problems.length) scope.broken = scope.openPrefix = true;
      const prefix = joinPattern(outer.prefix, literal.getLiteralValue());
      scope.prefix = prefix === '/' ? '' : prefix;
    }
  }
  return scope;
}

function readMiddlewareList(entries: Node[], reporter: Reporter): MiddlewareSpec[] {
  const specs: MiddlewareSpec[] = [];
  for (const entry of entries) {
    if (Node.isSpreadElement(entry)) {
      reporter.error('SVC006', 'spread middleware lists are not static; list each middleware in the group options', entry);
      continue;
    }
    const spec = readMiddlewareSpec(entry, reporter);
    if (spec) specs.push(spec);
  }
  return specs;
}
