// The generated code finds a literal by a jump on its length first, so that only the
// texts of that length are compared: entries grouped by the length of their text,
// shortest first, each group in code-unit order.
import { compareText } from '../../text-order.ts';

export function byLength<T>(entries: Iterable<[string, T]>): Array<[number, Array<[string, T]>]> {
  const groups = new Map<number, Array<[string, T]>>();
  for (const entry of [...entries].sort(([a], [b]) => compareText(a, b))) {
    const group = groups.get(entry[0].length) ?? [];
    group.push(entry);
    groups.set(entry[0].length, group);
  }
  return [...groups].sort(([a], [b]) => a - b);
}
