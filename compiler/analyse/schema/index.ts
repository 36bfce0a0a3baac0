// Handler signatures → plain data: parameter names and optionality, JSON schemas of
// parameter types, what the return type becomes (return-cases.ts), placeholder
// conversions and JSDoc text.
import type { ArrowFunction, ClassDeclaration, FunctionDeclaration, FunctionExpression, MethodDeclaration, ParameterDeclaration, ts } from 'ts-morph';
import type { HandlerDoc, HandlerParam, ReturnCases } from '../../ir.ts';
import type { JsonSchema } from '../../json-schema.ts';
import { readJsDoc } from './jsdoc.ts';
import { paramKind } from './param-kind.ts';
import { returnCases } from './return-cases.ts';
import { SchemaRegistry } from './registry.ts';
import { TypeSchemas } from './type-schema.ts';

export { SchemaRegistry };

export type HandlerDeclaration = FunctionDeclaration | ArrowFunction | FunctionExpression | MethodDeclaration;

export interface ClassMember {
  cls: ClassDeclaration;
  key: string;
}

export interface HandlerDescription {
  /** Without a leading `this` parameter. */
  params: HandlerParam[];
  returns: ReturnCases;
  doc: HandlerDoc;
}

/** The parameters that take placeholders: all but a `this` parameter (SPEC §2). */
export const placeholderParameters = (decl: HandlerDeclaration): ParameterDeclaration[] => decl.getParameters().filter((p) => p.getName() !== 'this');

/** `member`: the class and key a controller method is reached through, which may inherit it. */
export function describeHandler(decl: HandlerDeclaration, registry: SchemaRegistry, member?: ClassMember): HandlerDescription {
  const checker = decl.getProject().getTypeChecker().compilerObject;
  const schemas = new TypeSchemas(checker, registry);
  const jsDoc = readJsDoc(decl);
  const inherited = member && inheritedSignature(checker, decl, member);
  // A type parameter (`<T extends string>(id: T)`) takes what its constraint takes; one without, anything.
  const constrained = (t: ts.Type): ts.Type => (t.isTypeParameter() ? (checker.getBaseConstraintOfType(t) ?? checker.getUnknownType()) : t);
  const params = placeholderParameters(decl).map((p, i): HandlerParam => {
    const optional = p.hasQuestionToken() || p.hasInitializer();
    const declared = checker.getTypeAtLocation(p.compilerNode);
    const given = inherited?.parameters[i] && checker.getTypeOfSymbol(inherited.parameters[i]);
    const typeNode = p.getTypeNode();
    // What the subclass makes of a base class's type parameter (`extends Resource<number>`) wins over the parameter as written.
    const fromSubclass = given !== undefined && given !== declared;
    const type = constrained(fromSubclass ? given : declared);
    const kind = paramKind(type);
    const describe = (): JsonSchema => {
      if (fromSubclass) return schemas.ofMembers(optional ? schemas.withoutNothing(type) : [type], p.compilerNode);
      return schemas.of(typeNode ? constrained(checker.getTypeFromTypeNode(typeNode.compilerNode)) : type, (typeNode ?? p).compilerNode);
    };
    // A type no segment converts to is SVC003 already; describing it would only add warnings.
    const schema = kind === null ? {} : describe();
    const description = jsDoc.params.get(p.getName());
    return {
      name: p.getName(),
      optional,
      schema: description ? { ...schema, description } : schema,
      kind,
      typeText: (!fromSubclass && typeNode?.getText()) || checker.typeToString(type),
    };
  });
  return { params, returns: returnCases(decl, checker, schemas, inherited), doc: jsDoc.doc };
}

/**
 * A method `cls` inherits, as a member of `cls`: its signature with the type arguments
 * `cls` gives its base (`class Items extends Resource<number, Item>` makes `show(id: K)`
 * take a number). Undefined for a method `cls` declares itself, or an overload's body,
 * which no call signature of the member is.
 */
function inheritedSignature(checker: ts.TypeChecker, method: HandlerDeclaration, { cls, key }: ClassMember): ts.Signature | undefined {
  if (method.getParent() === cls) return undefined;
  const name = cls.getNameNode();
  const symbol = name && checker.getSymbolAtLocation(name.compilerNode);
  const property = symbol && checker.getPropertyOfType(checker.getDeclaredTypeOfSymbol(symbol), key);
  if (!property) return undefined;
  return checker.getTypeOfSymbolAtLocation(property, cls.compilerNode).getCallSignatures().find((s) => s.getDeclaration() === method.compilerNode);
}
