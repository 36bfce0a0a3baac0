// How the dispatcher converts a placeholder for a parameter of this type (see `ParamKind`):
// numbers are parsed (and a union of number literals checked), booleans read from `true`
// and `false`, string-literal unions (and string enums) checked; anything else is passed
// as the decoded string, which is a lie to the handler unless the type takes a string.
import { ts } from 'ts-morph';
import type { ParamKind } from '../../ir.ts';
import { literalsInOrder } from './member-order.ts';

const ABSENT = ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null;
/** Types a decoded segment fits as it is. */
const TAKES_TEXT = ts.TypeFlags.StringLike | ts.TypeFlags.Any | ts.TypeFlags.Unknown;

/**
 * Strings a segment would have to be checked against per request: a template literal
 * type (`v${number}`) or an intrinsic mapping (`Uppercase<string>`). The dispatcher runs
 * no pattern matching, and passing any text on would break the type's promise.
 */
const PATTERNED = ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping;

/**
 * The conversion, or `null` for a type no segment can be turned into (`number | 'all'`,
 * `bigint`, an object, a patterned string) or that names nothing (an unresolved `Foo`,
 * which TypeScript reads as `any`).
 */
export function paramKind(type: ts.Type): ParamKind | null {
  const members = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & ABSENT)).map(primitivePart);
  if (members.some((t) => t.flags & PATTERNED || (t as { intrinsicName?: string }).intrinsicName === 'error')) return null;
  if (members.length === 0) return { kind: 'string' };
  if (members.every((t) => t.isNumberLiteral())) return { kind: 'number', values: [...new Set(literalsInOrder<number>(members))] };
  if (members.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { kind: 'number' };
  if (members.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return booleanKind(members);
  if (members.every((t) => t.isStringLiteral())) return { kind: 'enum', values: literalsInOrder<string>(members) };
  if (members.some((t) => t.flags & ts.TypeFlags.String) || members.every((t) => t.flags & TAKES_TEXT)) return { kind: 'string' };
  return null;
}

/** `boolean` is the union `true | false`; a type with one of them takes that one only. */
function booleanKind(members: ts.Type[]): ParamKind {
  const literals = new Set(members.map((t) => (t.flags & ts.TypeFlags.BooleanLiteral ? (t as { intrinsicName?: string }).intrinsicName === 'true' : undefined)));
  const [only] = literals;
  return literals.size === 1 && only !== undefined ? { kind: 'boolean', values: [only] } : { kind: 'boolean' };
}

/** A branded primitive (`string & { readonly brand: unique symbol }`) converts as its primitive. */
function primitivePart(type: ts.Type): ts.Type {
  if (!type.isIntersection()) return type;
  return type.types.find((t) => t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike)) ?? type;
}
