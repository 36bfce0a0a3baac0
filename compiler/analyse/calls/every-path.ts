// Whether a function body reaches one of `targets` whichever way its branches go: a body
// read on every path is a required request body, one read in a branch an optional one.
// Both arms of a condition count when each reaches a target (`json()` or `text()` by the
// content type). Early `return`s and `throw`s are not followed: a handler that reads the
// body unless it refuses the request first still requires one.
import { ts } from 'ts-morph';

const SHORT_CIRCUIT = new Set([ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken]);

export function onEveryPath(node: ts.Node, targets: ReadonlySet<ts.Node>): boolean {
  const reaches = (child: ts.Node | undefined): boolean => child !== undefined && onEveryPath(child, targets);
  if (targets.has(node)) return true;
  // A closure may never be called.
  if (ts.isFunctionLike(node)) return false;
  if (ts.isConditionalExpression(node)) return reaches(node.condition) || (reaches(node.whenTrue) && reaches(node.whenFalse));
  if (ts.isIfStatement(node)) return reaches(node.expression) || (reaches(node.thenStatement) && reaches(node.elseStatement));
  if (ts.isBinaryExpression(node) && SHORT_CIRCUIT.has(node.operatorToken.kind)) return reaches(node.left);
  // What runs before the first turn: a loop's body may run no time at all.
  if (ts.isForStatement(node)) return reaches(node.initializer) || reaches(node.condition);
  if (ts.isWhileStatement(node) || ts.isForInStatement(node) || ts.isForOfStatement(node)) return reaches(node.expression);
  if (ts.isSwitchStatement(node)) return reaches(node.expression);
  if (ts.isTryStatement(node)) return reaches(node.tryBlock) || reaches(node.finallyBlock);
  return ts.forEachChild(node, (child) => reaches(child) || undefined) ?? false;
}
