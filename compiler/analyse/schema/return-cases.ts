// A handler's return type → the answers the runtime makes of it (runtime/http/convert.ts).
// The runtime decides per value, not per type, so a union is split member by member:
// `string | null` is a text/html 200 or a 204, never a JSON string-or-null. This is the
// only place that knows those rules at build time; the OpenAPI emitter only prints them.
import { Node, ts } from 'ts-morph';
import type { ReturnCases } from '../../ir.ts';
import type { JsonSchema } from '../../json-schema.ts';
import type { HandlerDeclaration } from './index.ts';
import { skippedByJson } from './skipped-by-json.ts';
import { outsideSymbolName } from './type-names.ts';
import type { TypeSchemas } from './type-schema.ts';

const F = ts.TypeFlags;

type Case = keyof ReturnCases;

/** What the runtime sends as `application/octet-stream` (runtime/http/convert.ts): buffers and their views. */
const BYTES = new Set(
  ['Buffer', 'ArrayBuffer', 'DataView', 'Uint8Array', 'Uint8ClampedArray', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array']
    .concat(['Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']),
);

/** `signature`: the handler's own, unless a subclass instantiates it (schema/index.ts). */
export function returnCases(decl: HandlerDeclaration, checker: ts.TypeChecker, schemas: TypeSchemas, signature = checker.getSignatureFromDeclaration(decl.compilerNode)): ReturnCases {
  if (!signature) return { opaque: true };
  const declared = checker.getReturnTypeOfSignature(signature);
  const awaited = checker.getAwaitedType(declared) ?? declared;
  // A generic handler (`<T>(): T`, awaited `Awaited<T>`) answers with whatever its constraint allows.
  const resolved = awaited.flags & F.Instantiable ? checker.getBaseConstraintOfType(awaited) ?? checker.getUnknownType() : awaited;
  const members = resolved.isUnion() ? resolved.types : [resolved];
  const byCase = new Map<Case, ts.Type[]>();
  for (const member of members) {
    const found = caseOf(member);
    if (found) byCase.set(found, [...(byCase.get(found) ?? []), member]);
  }
  const site = (decl.getReturnTypeNode() ?? (Node.isArrowFunction(decl) || Node.isFunctionExpression(decl) ? decl : decl.getNameNode() ?? decl)).compilerNode;
  // The whole type keeps its name (an alias, an enum) when one case holds all of it.
  const schemaOf = (types: ts.Type[]): JsonSchema => (types.length === members.length ? schemas.of(resolved, site) : schemas.ofMembers(types, site));
  const html = byCase.get('html');
  const json = byCase.get('json');
  return {
    ...(html && { html: schemaOf(html) }),
    ...(json && { json: schemaOf(json) }),
    ...(byCase.has('bytes') && { bytes: true }),
    ...(byCase.has('blob') && { blob: true }),
    ...(byCase.has('empty') && { empty: true }),
    ...(byCase.has('opaque') && { opaque: true }),
  };
}

/**
 * The case of one member of a union; `undefined` for `never`, which is no value at all,
 * and for a function, a symbol or a bigint, which the runtime cannot send (JSON has no
 * bigint: `JSON.stringify` throws) and answers with a 500.
 */
function caseOf(type: ts.Type): Case | undefined {
  const f = type.flags;
  if (f & (F.Never | F.BigIntLike) || skippedByJson(type)) return undefined;
  if (f & (F.Any | F.Unknown)) return 'opaque';
  if (f & (F.Null | F.Undefined | F.Void)) return 'empty';
  if (f & F.StringLike) return 'html';
  // A branded string (`string & { __brand: 'Id' }`) is still a string.
  if (type.isIntersection()) return type.types.some((t) => t.flags & F.StringLike) ? 'html' : 'json';
  const name = outsideSymbolName(type);
  if (name && BYTES.has(name)) return 'bytes';
  if (name === 'Blob' || name === 'File') return 'blob';
  if (name === 'Response') return 'opaque';
  return 'json';
}
