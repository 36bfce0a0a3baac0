// The syntactic forms of handlers and middleware entries (SPEC §2). Names are resolved
// later, once every file they point at is in the project.
import { Node, type ArrayLiteralExpression, type Expression } from 'ts-morph';
import type { GroupScope, HandlerSpec, MiddlewareSpec } from '../registration.ts';
import type { Reporter } from '../reporter.ts';
import { asStringLiteral, unwrap } from './literals.ts';

const HANDLER_FORMS = "a closure, [Controller, 'method'] or ['Controller', 'method']";
const MIDDLEWARE_FORMS = "a class, a class name string, or [ClassOrName, [params…]]";

const isClassExpression = (node: Node): node is Expression => Node.isIdentifier(node) || Node.isPropertyAccessExpression(node);

export function readHandlerSpec(argument: Node, scope: GroupScope, reporter: Reporter): HandlerSpec | null {
  const node = unwrap(argument);
  if (Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isIdentifier(node)) return { kind: 'closure', node };
  if (!Node.isArrayLiteralExpression(node) || node.getElements().length !== 2) {
    reporter.error('SVC006', `a route handler must be ${HANDLER_FORMS}, written in place`, node);
    return null;
  }
  const [target, methodNode] = node.getElements().map(unwrap);
  const method = asStringLiteral(methodNode);
  if (!method) {
    reporter.error('SVC006', "the controller method must be a string literal, as in [UserController, 'show']", methodNode);
    return null;
  }
  const name = asStringLiteral(target);
  if (name) return { kind: 'name', node, classNode: name, className: name.getLiteralValue(), method, namespace: scope.namespace };
  if (isClassExpression(target)) return { kind: 'reference', node, classNode: target, method };
  reporter.error('SVC006', "the controller must be a class reference or a class name string, as in [UserController, 'show']", target);
  return null;
}

export function readMiddlewareSpec(entry: Node, reporter: Reporter): MiddlewareSpec | null {
  const node = unwrap(entry);
  let target: Node = node;
  let args: ArrayLiteralExpression | null = null;
  if (Node.isArrayLiteralExpression(node)) {
    const [first, params, ...rest] = node.getElements().map(unwrap);
    if (!first || !params || rest.length) {
      const count = node.getElements().length;
      reporter.error('SVC008', `a middleware entry in brackets is [ClassOrName, [params…]], 2 elements, but this one has ${count}; without parameters, write the class or name alone`, node);
      return null;
    }
    if (!Node.isArrayLiteralExpression(params)) {
      reporter.error('SVC006', `a middleware entry must be ${MIDDLEWARE_FORMS}; the parameters must be an array literal`, node);
      return null;
    }
    target = first;
    args = params;
  }
  const name = asStringLiteral(target);
  if (name) return { kind: 'name', node: target, classNode: name, className: name.getLiteralValue(), args };
  if (isClassExpression(target)) return { kind: 'reference', node: target, classNode: target, args };
  reporter.error('SVC006', `a middleware entry must be ${MIDDLEWARE_FORMS}`, target);
  return null;
}
