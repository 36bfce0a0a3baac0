// A handler's calls (body-calls.ts) as the IR holds them: the type a `json()` call
// returns becomes its schema, by the same machinery and components as the responses.
import type { ts } from 'ts-morph';
import type { HandlerCalls, RequestBodies } from '../../ir.ts';
import type { JsonSchema } from '../../json-schema.ts';
import type { HandlerDeclaration } from '../schema/index.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import { TypeSchemas } from '../schema/type-schema.ts';
import { bodyCalls, type BodyCalls } from './body-calls.ts';

export function handlerCalls(decl: HandlerDeclaration, registry: SchemaRegistry): HandlerCalls {
  const checker = decl.getProject().getTypeChecker().compilerObject;
  const found = bodyCalls(decl.compilerNode, checker);
  return {
    body: requestBodies(found, checker, registry),
    query: [...found.query].map(([name, repeated]) => ({ name, repeated })),
    statuses: [...found.statuses],
    ...(found.statusAlways && { statusAlways: true as const }),
    errors: [...found.errors],
  };
}

function requestBodies({ json, form, text, reading }: BodyCalls, checker: ts.TypeChecker, registry: SchemaRegistry): RequestBodies {
  return {
    ...(json.length > 0 && { json: jsonSchema(json, checker, registry) }),
    ...(form && { form: true }),
    ...(text && { text: true }),
    ...(reading === 'sometimes' && { optional: true }),
  };
}

/** Calls that read different types (one per branch) take any of them. */
function jsonSchema(calls: ts.CallExpression[], checker: ts.TypeChecker, registry: SchemaRegistry): JsonSchema {
  const types = [...new Set(calls.map((call) => checker.getTypeAtLocation(call)))];
  return new TypeSchemas(checker, registry, true).ofMembers(types, calls[0]!);
}
