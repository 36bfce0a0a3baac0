// The paths a route answers, shared by check and emit so that the table the checks
// accept is the table the dispatcher and OpenAPI describe. A route covers one shape, or
// two when its last placeholder is optional: `/search/{term?}` covers `/search` and
// `/search/{term}`.
import type { Segment } from './ir.ts';

export type Placeholder = Extract<Segment, { kind: 'param' }>;

export interface PathShape {
  segments: Segment[];
  /** The optional last placeholder is left out. */
  absent: boolean;
}

/** Without the optional placeholder first; where it is present it is no longer optional. */
export function pathShapes(segments: Segment[]): PathShape[] {
  const last = segments.at(-1);
  if (last?.kind !== 'param' || !last.optional) return [{ segments, absent: false }];
  const without = segments.slice(0, -1);
  return [
    { segments: without, absent: true },
    { segments: [...without, { ...last, optional: false }], absent: false },
  ];
}

export const placeholders = (segments: readonly Segment[]): Placeholder[] =>
  segments.filter((s): s is Placeholder => s.kind === 'param');

/** `/users/{id}`: the segments as a path, each placeholder as `placeholder` writes it (by default as in a pattern). */
export function pathText(segments: readonly Segment[], placeholder = (p: Placeholder) => `{${p.name}${p.optional ? '?' : ''}}`): string {
  return `/${segments.map((s) => (s.kind === 'literal' ? s.value : placeholder(s))).join('/')}`;
}

/** `/users/{}`: placeholder names left out, so two routes share it exactly when they match the same paths. */
export const shapeKey = (segments: readonly Segment[]): string => pathText(segments, (p) => (p.optional ? '{?}' : '{}'));
