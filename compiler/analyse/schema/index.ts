// Handler signatures → plain data: parameter names and optionality, JSON schemas of
// parameter types, what the return type becomes (return-cases.ts), placeholder
// conversions and JSDoc text.
import type { ArrowFunction, FunctionDeclaration, FunctionExpression, MethodDeclaration, ts } from 'ts-morph';
import type { HandlerDoc, HandlerParam, ReturnCases } from '../../ir.ts';
import { readJsDoc } from './jsdoc.ts';
import { paramKind } from './param-kind.ts';
import { returnCases } from './return-cases.ts';
import { SchemaRegistry } from './registry.ts';
import { TypeSchemas } from './type-schema.ts';

export { SchemaRegistry };

export type HandlerDeclaration = FunctionDeclaration | ArrowFunction | FunctionExpression | MethodDeclaration;

export interface HandlerDescription {
  /** Without a leading `this` parameter. */
  params: HandlerParam[];
  returns: ReturnCases;
  doc: HandlerDoc;
}

export function describeHandler(decl: HandlerDeclaration, registry: SchemaRegistry): HandlerDescription {
  const checker = decl.getProject().getTypeChecker().compilerObject;
  const schemas = new TypeSchemas(checker, registry);
  const jsDoc = readJsDoc(decl);
  const params = decl
    .getParameters()
    .filter((p) => p.getName() !== 'this')
    .map((p): HandlerParam => {
      // A type parameter (`<T extends string>(id: T)`) takes what its constraint takes; one without, anything.
      const constrained = (t: ts.Type): ts.Type => (t.isTypeParameter() ? (checker.getBaseConstraintOfType(t) ?? checker.getUnknownType()) : t);
      const type = constrained(checker.getTypeAtLocation(p.compilerNode));
      const typeNode = p.getTypeNode();
      const schema = schemas.of(typeNode ? constrained(checker.getTypeFromTypeNode(typeNode.compilerNode)) : type, (typeNode ?? p).compilerNode);
      const description = jsDoc.params.get(p.getName());
      return {
        name: p.getName(),
        optional: p.hasQuestionToken() || p.hasInitializer(),
        schema: description ? { ...schema, description } : schema,
        kind: paramKind(type),
        typeText: typeNode?.getText() ?? checker.typeToString(type),
      };
    });
  return { params, returns: returnCases(decl, checker, schemas), doc: jsDoc.doc };
}
