// The class whose constructor `new C(…)` or `super(…)` runs. A class that declares no
// constructor has JavaScript's implicit one, which hands its arguments on to its base's
// unchanged: `class Expired extends Gone {}` throws what `new Gone(…)` throws, and
// `class Unavailable extends HttpError {}` answers with the status it is given, as
// HttpError does.
import { ts } from 'ts-morph';

export function constructingClass(symbol: ts.Symbol, checker: ts.TypeChecker): ts.Symbol {
  const seen = new Set<ts.Symbol>();
  let current = symbol;
  while (!seen.has(current)) {
    seen.add(current);
    const declaration = current.declarations?.find(ts.isClassLike);
    if (declaration === undefined || declaration.members.some(ts.isConstructorDeclaration)) return current;
    const base = baseClass(declaration, checker);
    if (base === undefined) return current;
    current = base;
  }
  return current;
}

function baseClass(declaration: ts.ClassLikeDeclaration, checker: ts.TypeChecker): ts.Symbol | undefined {
  const extended = declaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
  // A base computed by a call (a mixin) is no class the checker can name.
  if (extended === undefined || !(ts.isIdentifier(extended) || ts.isPropertyAccessExpression(extended))) return undefined;
  const symbol = checker.getSymbolAtLocation(extended);
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}
