// Handler signatures → plain data: parameter names and optionality, JSON schemas of
// parameter and return types, placeholder conversions and JSDoc text.
import { Node, ts, type FunctionDeclaration, type ArrowFunction, type FunctionExpression, type MethodDeclaration } from 'ts-morph';
import type { HandlerDoc, HandlerParam } from '../../ir.ts';
import type { JsonSchema } from './json-schema.ts';
import { readJsDoc } from './jsdoc.ts';
import { paramKind } from './param-kind.ts';
import { SchemaRegistry } from './registry.ts';
import { TypeSchemas } from './type-schema.ts';

export { SchemaRegistry };

export type HandlerDeclaration = FunctionDeclaration | ArrowFunction | FunctionExpression | MethodDeclaration;

export interface HandlerDescription {
  /** Without a leading `this` parameter. */
  params: HandlerParam[];
  returns: JsonSchema | null;
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
      const type = checker.getTypeAtLocation(p.compilerNode);
      const typeNode = p.getTypeNode();
      const schema = schemas.of(typeNode ? checker.getTypeFromTypeNode(typeNode.compilerNode) : type, (typeNode ?? p).compilerNode);
      const description = jsDoc.params.get(p.getName());
      return {
        name: p.getName(),
        optional: p.hasQuestionToken() || p.hasInitializer(),
        schema: description ? { ...schema, description } : schema,
        kind: paramKind(type),
        typeText: typeNode?.getText() ?? checker.typeToString(type),
      };
    });
  return { params, returns: describeReturn(decl, checker, schemas), doc: jsDoc.doc };
}

/** The schema of what the handler resolves to; `null` when that is nothing (a 204). */
function describeReturn(decl: HandlerDeclaration, checker: ts.TypeChecker, schemas: TypeSchemas): JsonSchema | null {
  const signature = checker.getSignatureFromDeclaration(decl.compilerNode);
  if (!signature) return {};
  const declared = checker.getReturnTypeOfSignature(signature);
  const resolved = checker.getAwaitedType(declared) ?? declared;
  const values = schemas.withoutNothing(resolved).filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Never)));
  if (values.length === 0) return null;
  const site = decl.getReturnTypeNode() ?? (Node.isArrowFunction(decl) || Node.isFunctionExpression(decl) ? decl : decl.getNameNode() ?? decl);
  return schemas.of(resolved, site.compilerNode);
}
