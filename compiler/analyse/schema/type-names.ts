// Which types become OpenAPI components, and under what name. Only types declared in
// the project are named: library types (`Array`, `Record`, `Partial`…) are inlined.
import { ts } from 'ts-morph';

const NAMED_SYMBOL = ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;
const NAMED_OBJECT = ts.ObjectFlags.ClassOrInterface | ts.ObjectFlags.Reference;

export function isProjectDeclaration(node: ts.Node): boolean {
  const file = node.getSourceFile();
  return !file.hasNoDefaultLib && !file.fileName.includes('/node_modules/');
}

const declaredInProject = (symbol: ts.Symbol): boolean => (symbol.declarations ?? []).some(isProjectDeclaration);

/** The symbol name of a type declared outside the project (`Date`, `Buffer`…), if it is one. */
export function outsideSymbolName(type: ts.Type): string | undefined {
  const symbol = type.getSymbol();
  return symbol && !declaredInProject(symbol) ? symbol.getName() : undefined;
}

/**
 * `User`, `Role`, or for an instantiated generic its arguments spelled in:
 * `Page<User>` → `Page_User_`, `Pair<string, number[]>` → `Pair_string_numberArray_`.
 */
export function componentName(type: ts.Type, checker: ts.TypeChecker): string | undefined {
  const alias = type.aliasSymbol;
  if (alias && declaredInProject(alias)) return spell(alias.getName(), type.aliasTypeArguments ?? [], checker);
  const symbol = type.getSymbol();
  if (!symbol || !(symbol.flags & NAMED_SYMBOL) || !declaredInProject(symbol)) return undefined;
  if (symbol.flags & ts.SymbolFlags.Enum) return type.isUnion() || !(type.flags & ts.TypeFlags.EnumLiteral) ? identifier(symbol.getName()) : undefined;
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & NAMED_OBJECT)) return undefined;
  return spell(symbol.getName(), typeArguments(type as ts.ObjectType, checker), checker);
}

/** A reference's own type arguments, without the implicit `this` argument of classes and interfaces. */
function typeArguments(type: ts.ObjectType, checker: ts.TypeChecker): readonly ts.Type[] {
  if (!(type.objectFlags & ts.ObjectFlags.Reference)) return [];
  const reference = type as ts.TypeReference;
  return checker.getTypeArguments(reference).slice(0, reference.target.typeParameters?.length ?? 0);
}

function spell(base: string, args: readonly ts.Type[], checker: ts.TypeChecker): string {
  if (args.length === 0) return identifier(base);
  const parts = args.map((arg) => componentName(arg, checker) ?? identifier(checker.typeToString(arg).replaceAll('[]', 'Array')));
  return `${identifier(base)}_${parts.join('_')}_`;
}

/** Component keys must match `^[a-zA-Z0-9._-]+$`. */
const identifier = (text: string): string => text.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'Anonymous';
