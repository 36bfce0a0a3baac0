// Router uses the compiler cannot count: registrations in loops, conditions, try blocks or
// nested functions, and the router handed to another function. Each is reported at the
// call that uses the router, naming the outermost construct that makes it non-static.
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import type { Reporter } from '../reporter.ts';
import { declares } from './scopes.ts';

const FIX = 'register routes directly in the route function or a group callback';

const LOOP = 'inside a loop';
const CONDITION = 'inside a condition';
const ENCLOSING: Partial<Record<SyntaxKind, string>> = {
  [SyntaxKind.ForStatement]: LOOP,
  [SyntaxKind.ForOfStatement]: LOOP,
  [SyntaxKind.ForInStatement]: LOOP,
  [SyntaxKind.WhileStatement]: LOOP,
  [SyntaxKind.DoStatement]: LOOP,
  [SyntaxKind.IfStatement]: CONDITION,
  [SyntaxKind.SwitchStatement]: CONDITION,
  [SyntaxKind.ConditionalExpression]: CONDITION,
  [SyntaxKind.TryStatement]: 'inside a try statement',
  // A `break label` can leave the block before the registration.
  [SyntaxKind.LabeledStatement]: 'inside a labelled statement',
  [SyntaxKind.ClassStaticBlockDeclaration]: 'inside a class',
  [SyntaxKind.ArrowFunction]: 'inside a nested function',
  [SyntaxKind.FunctionExpression]: 'inside a nested function',
  [SyntaxKind.FunctionDeclaration]: 'inside a nested function',
  [SyntaxKind.MethodDeclaration]: 'inside a nested function',
};
const LOGICAL = new Set([SyntaxKind.AmpersandAmpersandToken, SyntaxKind.BarBarToken, SyntaxKind.QuestionQuestionToken]);

/**
 * Reports every use of a router name inside `root`, a statement that is not a plain
 * registration; returns the calls among them, `router.<member>(…)`.
 */
export function rejectRouterUses(root: Node, routers: ReadonlySet<string>, reporter: Reporter): CallExpression[] {
  const uses = [root, ...root.getDescendantsOfKind(SyntaxKind.Identifier)].filter(
    (node) => Node.isIdentifier(node) && routers.has(node.getText()) && !isPropertyName(node) && !shadowed(node, root),
  );
  const calls = uses.flatMap((use) => report(use, root, reporter) ?? []);
  rejectEarlyExits(root, reporter);
  return calls;
}

/** A `return` or `throw` of the route function itself would make the registrations after it conditional. */
function rejectEarlyExits(root: Node, reporter: Reporter): void {
  const exits = [root, ...root.getDescendants()].filter((node) => Node.isReturnStatement(node) || Node.isThrowStatement(node));
  for (const exit of exits) {
    if (insideFunction(exit, root)) continue;
    reporter.error('SVC006', `a ${exit.getFirstChildOrThrow().getText()} statement in a route function or group callback makes the registrations after it conditional; remove it`, exit);
  }
}

/** The call, when the use is `router.<member>(…)`. */
function report(use: Node, root: Node, reporter: Reporter): CallExpression | null {
  const reason = enclosingReason(use, root);
  const member = use.getParent();
  const call = member?.getParent();
  if (Node.isPropertyAccessExpression(member) && member.getExpression() === use && Node.isCallExpression(call) && call.getExpression() === member) {
    const what = `route registration ${member.getText()}(…)`;
    reporter.error('SVC006', reason ? `${what} ${reason} is not static: svc build cannot tell whether or how often it runs; ${FIX}` : `${what} must be a statement of its own; ${FIX}`, call);
    return call;
  }
  if (Node.isCallExpression(member) && member.getArguments().includes(use as never)) {
    const text = `the router is passed to ${member.getExpression().getText()}(…)${reason ? ` ${reason}` : ''}: registrations made by another function are not static; ${FIX}`;
    reporter.error('SVC006', text, member);
    return null;
  }
  reporter.error('SVC006', `the router is used ${reason ?? 'outside a registration call'}; it may only be used as router.<method>(pattern, handler) or router.group(options, callback); ${FIX}`, use);
  return null;
}

/** The outermost construct between the statement and the use that makes it non-static. */
function enclosingReason(use: Node, root: Node): string | null {
  const chain: Node[] = [];
  if (use === root) return null;
  for (let node = use.getParent(); node; node = node.getParent()) {
    chain.push(node);
    if (node === root) break;
  }
  for (const node of chain.reverse()) {
    const reason = ENCLOSING[node.getKind()];
    if (reason) return reason;
    if (Node.isBinaryExpression(node) && LOGICAL.has(node.getOperatorToken().getKind())) return CONDITION;
  }
  return null;
}

/** Whether a function between `node` and `root` (inclusive) owns it. */
function insideFunction(node: Node, root: Node): boolean {
  if (node === root) return false;
  for (let current = node.getParent(); current; current = current.getParent()) {
    if (isFunction(current)) return true;
    if (current === root) return false;
  }
  return false;
}

/**
 * Whether a scope between the use and `root` (inclusive) gives the name another meaning:
 * a handler's parameter (`(router: string) => …`) or variable (`const r = [1, 2]`), or a
 * `function`'s own `arguments`.
 */
function shadowed(use: Node, root: Node): boolean {
  const name = use.getText();
  for (let node = use.getParent(); node; node = node.getParent()) {
    if (name === 'arguments' ? isFunction(node) && !Node.isArrowFunction(node) : declares(node, name)) return true;
    if (node === root) return false;
  }
  return false;
}

/** ts-morph's `isFunctionLikeDeclaration` leaves out function expressions (`const h = function () { … }`). */
const isFunction = (node: Node): boolean => Node.isFunctionLikeDeclaration(node) || Node.isFunctionExpression(node);

/** A key, not a value: `x.router`, `{ router: 1 }`, `{ router: value } = …`, `{ router: number }`, a member named `router`. */
function isPropertyName(node: Node): boolean {
  const parent = node.getParent();
  if (Node.isBindingElement(parent)) return parent.getPropertyNameNode() === node;
  return (
    ((Node.isPropertyAccessExpression(parent) ||
      Node.isPropertyAssignment(parent) ||
      Node.isPropertySignature(parent) ||
      Node.isMethodSignature(parent) ||
      Node.isPropertyDeclaration(parent) ||
      Node.isMethodDeclaration(parent) ||
      Node.isGetAccessorDeclaration(parent) ||
      Node.isSetAccessorDeclaration(parent)) &&
      parent.getNameNode() === node) ||
    Node.isQualifiedName(parent)
  );
}
