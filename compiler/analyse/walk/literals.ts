// The only values the compiler reads out of route files: string literals and literal
// JSON (middleware parameters, where a `const` holding a string, number, boolean or null
// counts as its value). Anything computed is non-static (SVC006).
import { Node, SyntaxKind, VariableDeclarationKind, type Identifier, type NumericLiteral } from 'ts-morph';
import type { StringNode } from '../registration.ts';

/** Unwraps `(x)`, `x as T`, `x satisfies T`, `<T>x` and `x!`, which change nothing at run time. */
export function unwrap(node: Node): Node {
  let current = node;
  while (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current) || Node.isTypeAssertion(current) || Node.isNonNullExpression(current)) {
    current = current.getExpression();
  }
  return current;
}

export function asStringLiteral(node: Node): StringNode | null {
  const inner = unwrap(node);
  return Node.isStringLiteral(inner) || Node.isNoSubstitutionTemplateLiteral(inner) ? inner : null;
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; at: Node };

/** A literal JSON value, or the first node that is not one. */
export function readJsonLiteral(node: Node): JsonRead {
  const inner = unwrap(node);
  const text = asStringLiteral(inner);
  if (text) return { ok: true, value: text.getLiteralValue() };
  if (Node.isNumericLiteral(inner)) return { ok: true, value: numericValue(inner) };
  if (Node.isPrefixUnaryExpression(inner) && inner.getOperatorToken() === SyntaxKind.MinusToken) {
    const operand = inner.getOperand();
    if (Node.isNumericLiteral(operand)) return { ok: true, value: -numericValue(operand) };
  }
  if (Node.isTrueLiteral(inner) || Node.isFalseLiteral(inner)) return { ok: true, value: inner.getLiteralValue() };
  if (Node.isNullLiteral(inner)) return { ok: true, value: null };
  if (Node.isIdentifier(inner)) return constantValue(inner);
  if (Node.isArrayLiteralExpression(inner)) return readAll(inner.getElements(), (values) => values);
  if (Node.isObjectLiteralExpression(inner)) {
    const entries: Array<[string, Node]> = [];
    for (const property of inner.getProperties()) {
      const name = Node.isPropertyAssignment(property) ? propertyName(property.getNameNode()) : null;
      if (!Node.isPropertyAssignment(property) || name === null) return { ok: false, at: property };
      entries.push([name, property.getInitializerOrThrow()]);
    }
    return readAll(entries.map(([, value]) => value), (values) => Object.fromEntries(values.map((v, i) => [entries[i][0], v])));
  }
  return { ok: false, at: inner };
}

/**
 * `LIMIT` in `[RateLimitKnots, [LIMIT, 60]]`: a `const`, here or imported, whose
 * initializer is a primitive literal. Not an array or object: its contents could change
 * before the route file runs, and the build would check other values than the server gets.
 */
function constantValue(name: Identifier): JsonRead {
  const symbol = name.getSymbol();
  const declaration = (symbol?.getAliasedSymbol() ?? symbol)?.getValueDeclaration();
  const initializer = Node.isVariableDeclaration(declaration) && declaration.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const ? declaration.getInitializer() : undefined;
  if (initializer === undefined) return { ok: false, at: name };
  const inner = unwrap(initializer);
  if (Node.isArrayLiteralExpression(inner) || Node.isObjectLiteralExpression(inner) || Node.isIdentifier(inner)) return { ok: false, at: name };
  const read = readJsonLiteral(inner);
  return read.ok ? read : { ok: false, at: name };
}

/**
 * TypeScript's own reading: it writes every literal's value out as JavaScript would
 * (`0x10` as 16, `1e3` as 1000, `1e21` as 1e+21), where ts-morph's `getLiteralValue()`
 * takes `1e+21` or `1e-7` for 1.
 */
export const numericValue = (literal: NumericLiteral): number => Number(literal.compilerNode.text);

function readAll(nodes: Node[], build: (values: unknown[]) => unknown): JsonRead {
  const values: unknown[] = [];
  for (const node of nodes) {
    const read = readJsonLiteral(node);
    if (!read.ok) return read;
    values.push(read.value);
  }
  return { ok: true, value: build(values) };
}

/** `name`, `'name'` or `"name"` as an object key; computed keys are not static. */
export function propertyName(node: Node): string | null {
  if (Node.isIdentifier(node)) return node.getText();
  const text = asStringLiteral(node);
  return text ? text.getLiteralValue() : null;
}
