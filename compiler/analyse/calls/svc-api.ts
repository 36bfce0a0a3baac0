// Which calls in a function body are svc's own API: a member of the request context,
// `HttpError` and `abort`. Told by the declaration the checker resolves a name to, so the
// context counts however it is reached (`this`, `this.ctx`, a local alias, a subtype) and
// an import counts under any name, while an application's look-alike does not.
import { ts } from 'ts-morph';
import { frameworkRuntime } from '../../framework.ts';

const CONTEXT_FILE = `${frameworkRuntime}context.ts`;
const ERRORS_FILE = `${frameworkRuntime}errors/http-error.ts`;

/** `access.name` when it reads a member of svc's `Context` (`this.ctx.json` → `json`). */
export function contextMember(access: ts.PropertyAccessExpression, checker: ts.TypeChecker): string | undefined {
  const declaration = checker.getSymbolAtLocation(access.name)?.declarations?.[0];
  const owner = declaration?.parent;
  const inContext = owner !== undefined && ts.isInterfaceDeclaration(owner) && owner.name.text === 'Context' && owner.getSourceFile().fileName === CONTEXT_FILE;
  return inContext ? access.name.text : undefined;
}

/** Whether `callee` (of a call or a `new`) is svc's `abort` or `HttpError`, which answer with their first argument as the status. */
export function answersWithError(callee: ts.Expression, checker: ts.TypeChecker): boolean {
  const named = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
  const symbol = checker.getSymbolAtLocation(named);
  const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target?.declarations?.[0];
  return declaration !== undefined && declaration.getSourceFile().fileName === ERRORS_FILE && (target!.name === 'abort' || target!.name === 'HttpError');
}
