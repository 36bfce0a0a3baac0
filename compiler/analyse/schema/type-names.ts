// Which types become OpenAPI components, under what name, and by what key. Only types
// declared in the project are named: library types (`Array`, `Record`, `Partial`…) are
// inlined. The key says where the type is declared (and with which type arguments), so
// it stays the same across type checkers: a schema walked in one build can be reused by
// the next, and the final names are handed out once the whole table is known (naming.ts).
import { ts } from 'ts-morph';

const NAMED_SYMBOL = ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum;
const NAMED_OBJECT = ts.ObjectFlags.ClassOrInterface | ts.ObjectFlags.Reference;

export function isProjectDeclaration(node: ts.Node): boolean {
  const file = node.getSourceFile();
  return !file.hasNoDefaultLib && !file.fileName.includes('/node_modules/');
}

const projectDeclaration = (symbol: ts.Symbol): ts.Declaration | undefined => symbol.declarations?.find(isProjectDeclaration);

/** The symbol name of a type declared outside the project (`Date`, `Buffer`…), if it is one. */
export function outsideSymbolName(type: ts.Type): string | undefined {
  const symbol = type.getSymbol();
  return symbol && !projectDeclaration(symbol) ? symbol.getName() : undefined;
}

export interface ComponentId {
  /** `weave/Models/Page.ts:120<weave/Models/User.ts:40>`: declaration site and arguments. */
  key: string;
  /** The name it asks for: `User`, or for an instantiated generic `Page_User_`, `Pair_string_numberArray_`. */
  name: string;
}

/** How a declaration is spelled in keys: its project-relative file and offset. */
export type Locate = (declaration: ts.Declaration) => string;

export function componentId(type: ts.Type, checker: ts.TypeChecker, locate: Locate): ComponentId | undefined {
  const alias = type.aliasSymbol;
  const aliasDeclaration = alias && projectDeclaration(alias);
  if (alias && aliasDeclaration) return spell(alias, aliasDeclaration, type.aliasTypeArguments ?? [], checker, locate);
  const symbol = type.getSymbol();
  const declaration = symbol && symbol.flags & NAMED_SYMBOL ? projectDeclaration(symbol) : undefined;
  if (!symbol || !declaration) return undefined;
  if (symbol.flags & ts.SymbolFlags.Enum) {
    return type.isUnion() || !(type.flags & ts.TypeFlags.EnumLiteral) ? spell(symbol, declaration, [], checker, locate) : undefined;
  }
  if (!(type.flags & ts.TypeFlags.Object) || !((type as ts.ObjectType).objectFlags & NAMED_OBJECT)) return undefined;
  return spell(symbol, declaration, typeArguments(type as ts.ObjectType, checker), checker, locate);
}

/** A reference's own type arguments, without the implicit `this` argument of classes and interfaces. */
function typeArguments(type: ts.ObjectType, checker: ts.TypeChecker): readonly ts.Type[] {
  if (!(type.objectFlags & ts.ObjectFlags.Reference)) return [];
  const reference = type as ts.TypeReference;
  return checker.getTypeArguments(reference).slice(0, reference.target.typeParameters?.length ?? 0);
}

function spell(symbol: ts.Symbol, declaration: ts.Declaration, args: readonly ts.Type[], checker: ts.TypeChecker, locate: Locate): ComponentId {
  const base = { key: locate(declaration), name: identifier(symbol.getName()) };
  if (args.length === 0) return base;
  const parts = args.map((arg) => componentId(arg, checker, locate) ?? spelledOut(arg, checker));
  return {
    key: `${base.key}<${parts.map((p) => p.key).join(',')}>`,
    name: `${base.name}_${parts.map((p) => p.name).join('_')}_`,
  };
}

/** A type argument that is no component: its text, in full for the key (long types are cut short otherwise). */
function spelledOut(type: ts.Type, checker: ts.TypeChecker): ComponentId {
  const name = identifier(checker.typeToString(type).replaceAll('[]', 'Array'));
  return { key: checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation), name };
}

/** Component keys must match `^[a-zA-Z0-9._-]+$`. */
const identifier = (text: string): string => text.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'Anonymous';
