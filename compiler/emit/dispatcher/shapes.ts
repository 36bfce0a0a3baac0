// The dispatcher is built from the shapes routes cover (compiler/route-shapes.ts), not
// from routes: a route with an optional last placeholder answers in two places.
import type { Route } from '../../ir.ts';
import { pathShapes, type PathShape } from '../../route-shapes.ts';

export interface Shape extends PathShape {
  route: Route;
}

export const shapesOf = (route: Route): Shape[] => pathShapes(route.segments).map((shape) => ({ ...shape, route }));

export const isStatic = (shape: Shape): boolean => shape.segments.every((s) => s.kind === 'literal');
