// Values `JSON.stringify` has no text for: functions (classes included) and symbols. As a
// property it leaves them out, so such a property is never required; returned on their own
// they make the runtime throw (runtime/http/convert.ts), so they are no success response.
import { ts } from 'ts-morph';

export function skippedByJson(type: ts.Type): boolean {
  if (type.flags & ts.TypeFlags.ESSymbolLike) return true;
  return (type.flags & ts.TypeFlags.Object) !== 0 && (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0);
}
