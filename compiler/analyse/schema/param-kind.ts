// How the dispatcher converts a placeholder for a parameter of this type (see `ParamKind`):
// numbers are parsed, string-literal unions (and string enums) are checked, anything else
// is passed as the decoded string.
import { ts } from 'ts-morph';
import type { ParamKind } from '../../ir.ts';

const ABSENT = ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null;

export function paramKind(type: ts.Type): ParamKind {
  const members = (type.isUnion() ? type.types : [type]).filter((t) => !(t.flags & ABSENT));
  if (members.length === 0) return { kind: 'string' };
  if (members.every((t) => t.flags & ts.TypeFlags.NumberLike)) return { kind: 'number' };
  if (members.every((t) => t.isStringLiteral())) return { kind: 'enum', values: members.map((t) => (t as ts.StringLiteralType).value) };
  return { kind: 'string' };
}
