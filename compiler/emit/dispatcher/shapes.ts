// A route matches paths of one shape, or of two when its last placeholder is optional:
// with that segment and without it. The dispatcher is built from shapes, not routes.
import type { Route, Segment } from '../../ir.ts';

export interface Shape {
  route: Route;
  segments: Segment[];
  /** The optional last placeholder is left out; its parameter is `undefined`. */
  absent: boolean;
}

export function shapesOf(route: Route): Shape[] {
  const full: Shape = { route, segments: route.segments, absent: false };
  const last = route.segments.at(-1);
  if (last?.kind !== 'param' || !last.optional) return [full];
  return [full, { route, segments: route.segments.slice(0, -1), absent: true }];
}

export const isStatic = (shape: Shape): boolean => shape.segments.every((s) => s.kind === 'literal');

/** The one path a static shape matches. */
export const staticPath = (shape: Shape): string =>
  `/${shape.segments.map((s) => (s.kind === 'literal' ? s.value : '')).join('/')}`;

/** Whether `shape` matches the path made of `segments`, ignoring placeholder types. */
export const fits = (shape: Shape, segments: string[]): boolean =>
  shape.segments.length === segments.length &&
  shape.segments.every((s, i) => s.kind === 'param' || s.value === segments[i]);
