// Which calls in a function body are svc's own API: a member of the request context,
// `HttpError` and `abort`. Told by the declaration the checker resolves a name to, so the
// context counts however it is reached (`this`, `this.ctx`, a local alias, a subtype) and
// an import counts under any name, while an application's look-alike does not.
import { ts } from 'ts-morph';
import { frameworkRuntime } from '../../framework.ts';
import { constructingClass } from './constructing-class.ts';

const CONTEXT_FILE = `${frameworkRuntime}context.ts`;
const ERRORS_FILE = `${frameworkRuntime}errors/http-error.ts`;

/** `access.name` when it reads a member of svc's `Context` (`this.ctx.json` → `json`). */
export function contextMember(access: ts.PropertyAccessExpression, checker: ts.TypeChecker): string | undefined {
  return isContextMember(checker.getSymbolAtLocation(access.name)) ? access.name.text : undefined;
}

/**
 * Whether `expression` is the context's `query`: `this.query`, `this.ctx.query`, or a
 * `const` that holds it (`const q = this.query`, `const { query } = this.ctx`).
 */
export function isContextQuery(expression: ts.Expression, checker: ts.TypeChecker): boolean {
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text === 'query' && contextMember(expression, checker) !== undefined;
  if (!ts.isIdentifier(expression)) return false;
  const declaration = checker.getSymbolAtLocation(expression)?.declarations?.[0];
  if (declaration === undefined || !(ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const)) return false;
  if (ts.isVariableDeclaration(declaration)) return declaration.initializer !== undefined && isContextQuery(declaration.initializer, checker);
  if (!ts.isBindingElement(declaration) || !ts.isObjectBindingPattern(declaration.parent)) return false;
  const property = declaration.propertyName ?? declaration.name;
  if (!ts.isIdentifier(property) || property.text !== 'query') return false;
  const holder = declaration.parent.parent;
  if (!ts.isVariableDeclaration(holder) || holder.initializer === undefined) return false;
  return isContextMember(checker.getTypeAtLocation(holder.initializer).getProperty('query'));
}

function isContextMember(symbol: ts.Symbol | undefined): boolean {
  const owner = symbol?.declarations?.[0]?.parent;
  return owner !== undefined && ts.isInterfaceDeclaration(owner) && owner.name.text === 'Context' && owner.getSourceFile().fileName === CONTEXT_FILE;
}

/** Whether `callee` (of a call or a `new`) is svc's `abort` or `HttpError`, which answer with their first argument as the status. */
export function answersWithError(callee: ts.Expression, checker: ts.TypeChecker): boolean {
  const named = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  const symbol = checker.getSymbolAtLocation(named);
  const resolved = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  // `class Unavailable extends HttpError {}` is HttpError's constructor, status and all.
  const target = resolved && constructingClass(resolved, checker);
  const declaration = target?.declarations?.[0];
  return declaration !== undefined && declaration.getSourceFile().fileName === ERRORS_FILE && (target!.name === 'abort' || target!.name === 'HttpError');
}
