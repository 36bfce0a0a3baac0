// TypeScript keeps a union's members in type-id order: the order in which the checker
// first met each type, which depends on other files and, under `svc tread`, on which
// files were re-analysed. Whatever is emitted from a union (an `enum`, an `anyOf`, the
// dispatcher's checks) is put in an order of its own, so that the same tree always gives
// the same bytes, incremental or fresh.
import { ts } from 'ts-morph';
import { compareText } from '../../text-order.ts';

/**
 * String literals in code-unit order, number literals ascending. An enum's members keep
 * their declared order: the checker creates them all at once, so their ids follow it.
 * Members of two enums are sorted too: which enum the checker met first is not fixed.
 */
export function literalsInOrder<T extends string | number>(members: readonly ts.Type[]): T[] {
  const values = members.map((t) => (t as ts.LiteralType).value as T);
  if (members.every((t) => t.flags & ts.TypeFlags.EnumLiteral) && new Set(members.map(enumOf)).size === 1) return values;
  return [...values].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : compareText(String(a), String(b))));
}

/** The enum declaring an enum member's literal type. */
const enumOf = (type: ts.Type): ts.Node | undefined => type.getSymbol()?.valueDeclaration?.parent;

/**
 * Intrinsic types (`string`, `number`, `null`…) are created with the checker, so their
 * order is fixed; the others are ordered by the text of their schema, whose `$ref`s hold
 * declaration locations at this stage.
 */
export function schemasInOrder<S>(entries: ReadonlyArray<{ type: ts.Type; schema: S }>): S[] {
  const intrinsic = (t: ts.Type) => (t.flags & INTRINSIC) !== 0;
  const fixed = entries.filter((e) => intrinsic(e.type));
  const keyed = entries.filter((e) => !intrinsic(e.type)).map((e) => ({ schema: e.schema, key: JSON.stringify(e.schema) }));
  keyed.sort((a, b) => compareText(a.key, b.key));
  return [...fixed.map((e) => e.schema), ...keyed.map((e) => e.schema)];
}

const F = ts.TypeFlags;
const INTRINSIC = F.Any | F.Unknown | F.String | F.Number | F.Boolean | F.BigInt | F.ESSymbol | F.Void | F.Undefined | F.Null | F.Never | F.NonPrimitive;

/**
 * A mapped type's properties come in the order of its keys' union (`Record<'a' | 'b', T>`),
 * which follows the literal the checker met first, in whichever file: not a fixed order.
 */
export const keysInUnionOrder = (type: ts.Type): boolean =>
  (type.isIntersection() ? type.types : [type]).some((t) => t.flags & ts.TypeFlags.Object && (t as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped);
