// Handler signatures → plain data: parameter names and optionality, JSON schemas of
// parameter and return types, placeholder conversions and JSDoc text.
// (Minimal first version; the OpenAPI work replaces the type → schema part.)
import { Node, type FunctionDeclaration, type ArrowFunction, type FunctionExpression, type MethodDeclaration } from 'ts-morph';
import type { Diagnostic } from '../../diagnostics.ts';
import type { HandlerDoc, HandlerParam, ParamKind } from '../../ir.ts';
import type { JsonSchema } from './json-schema.ts';

export type HandlerDeclaration = FunctionDeclaration | ArrowFunction | FunctionExpression | MethodDeclaration;

/** Collects named schemas (components) and warnings across every handler of one build. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly root: string) {}
}

export interface HandlerDescription {
  /** Without a leading `this` parameter. */
  params: HandlerParam[];
  returns: JsonSchema | null;
  doc: HandlerDoc;
}

export function describeHandler(decl: HandlerDeclaration, _registry: SchemaRegistry): HandlerDescription {
  const params = decl
    .getParameters()
    .filter((p) => p.getName() !== 'this')
    .map((p): HandlerParam => ({
      name: p.getName(),
      optional: p.hasQuestionToken() || p.hasInitializer(),
      schema: {},
      kind: paramKind(p.getType().getNonNullableType().getText()),
    }));
  const returnText = decl.getReturnType().getText();
  const returns = ['void', 'undefined', 'null', 'Promise<void>'].includes(returnText) ? null : {};
  return { params, returns, doc: docOf(decl) };
}

function paramKind(typeText: string): ParamKind {
  return typeText === 'number' ? { kind: 'number' } : { kind: 'string' };
}

function docOf(decl: HandlerDeclaration): HandlerDoc {
  const host = Node.isMethodDeclaration(decl) || Node.isFunctionDeclaration(decl) ? decl : decl.getParentOrThrow();
  const docs = Node.isJSDocable(host) ? host.getJsDocs() : [];
  const text = docs.map((d) => d.getDescription().trim()).join('\n').trim();
  if (!text) return {};
  const [summary, ...rest] = text.split(/\n\s*\n/);
  const description = rest.join('\n\n').trim();
  return description ? { summary: summary.trim(), description } : { summary: summary.trim() };
}
