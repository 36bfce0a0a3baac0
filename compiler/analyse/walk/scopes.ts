// Which names a scope declares, read from the syntax: the walk tracks the router by its
// name, and a handler's `const r = [1, 2, 3]` or a block's `const router = other` is
// another variable that merely shares it.
import { Node, SyntaxKind, VariableDeclarationKind, type BindingName } from 'ts-morph';

/**
 * Whether `scope` gives `name` a meaning of its own for the code inside it: a function
 * through its parameters, its own name or a `var` in its body; a block or `case` list
 * through its `let`, `const`, classes and functions; a `catch` through its variable; a
 * `for` through the variables of its head.
 */
export function declares(scope: Node, name: string): boolean {
  if (Node.isFunctionLikeDeclaration(scope) || Node.isFunctionExpression(scope)) {
    if (scope.getParameters().some((p) => bindingNames(p.getNameNode()).includes(name))) return true;
    if (Node.isFunctionExpression(scope) && scope.getName() === name) return true;
    return hoistedVars(scope).includes(name);
  }
  if (Node.isBlock(scope) || Node.isCaseClause(scope) || Node.isDefaultClause(scope)) {
    return scope.getStatements().some((statement) => statementNames(statement).includes(name));
  }
  if (Node.isCatchClause(scope)) {
    const variable = scope.getVariableDeclaration();
    return variable !== undefined && bindingNames(variable.getNameNode()).includes(name);
  }
  if (Node.isForStatement(scope) || Node.isForOfStatement(scope) || Node.isForInStatement(scope)) {
    const head = scope.getInitializer();
    return Node.isVariableDeclarationList(head) && head.getDeclarations().some((d) => bindingNames(d.getNameNode()).includes(name));
  }
  return false;
}

/** The names a declaration's name binds: `r`, or each name a destructuring pattern binds (`{ a: r }` binds `r`, not `a`). */
function bindingNames(binding: BindingName): string[] {
  if (Node.isIdentifier(binding)) return [binding.getText()];
  return binding.getElements().flatMap((element) => (Node.isBindingElement(element) ? bindingNames(element.getNameNode()) : []));
}

/** Names a statement declares in its block (`var` aside: it belongs to the function). */
function statementNames(statement: Node): string[] {
  if (Node.isVariableStatement(statement)) {
    if (statement.getDeclarationKind() === VariableDeclarationKind.Var) return [];
    return statement.getDeclarations().flatMap((d) => bindingNames(d.getNameNode()));
  }
  if (Node.isFunctionDeclaration(statement) || Node.isClassDeclaration(statement) || Node.isEnumDeclaration(statement)) {
    const declared = statement.getName();
    return declared === undefined ? [] : [declared];
  }
  return [];
}

/** `var` declarations anywhere in a function's body outside its nested functions, which JavaScript hoists to the function. */
function hoistedVars(fn: Node): string[] {
  const names: string[] = [];
  const body = fn.getChildrenOfKind(SyntaxKind.Block)[0];
  body?.forEachDescendant((node, traversal) => {
    if (Node.isFunctionLikeDeclaration(node) || Node.isFunctionExpression(node) || Node.isClassDeclaration(node) || Node.isClassExpression(node)) {
      return traversal.skip();
    }
    if (Node.isVariableDeclarationList(node) && node.getDeclarationKind() === VariableDeclarationKind.Var) {
      for (const declaration of node.getDeclarations()) names.push(...bindingNames(declaration.getNameNode()));
    }
  });
  return names;
}
