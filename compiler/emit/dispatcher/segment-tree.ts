// The shapes that hold a placeholder, merged into a tree of segments: a node's children
// are its literal segments and at most one placeholder (whatever its name or type; the
// type is checked only once a route is chosen).
import type { Shape } from './shapes.ts';

export interface SegmentNode {
  literals: Map<string, SegmentNode>;
  placeholder: SegmentNode | null;
  /** The names of the placeholders that lead to `placeholder`, for a comment. */
  placeholderNames: Set<string>;
  /** Shapes that end at this node: the first registered per method. */
  ends: Shape[];
}

const node = (): SegmentNode => ({ literals: new Map(), placeholder: null, placeholderNames: new Set(), ends: [] });

/** `shapes` in registration order, so that a duplicate (rejected by the check phase) loses. */
export function buildTree(shapes: Shape[]): SegmentNode {
  const root = node();
  for (const shape of shapes) {
    let at = root;
    for (const segment of shape.segments) {
      if (segment.kind === 'literal') {
        let next = at.literals.get(segment.value);
        if (!next) at.literals.set(segment.value, (next = node()));
        at = next;
      } else {
        at.placeholderNames.add(segment.name);
        at = at.placeholder ??= node();
      }
    }
    if (!at.ends.some((end) => end.route.method === shape.route.method)) at.ends.push(shape);
  }
  return root;
}

export const hasChildren = (n: SegmentNode): boolean => n.literals.size > 0 || n.placeholder !== null;

/** Whether some shape in the tree matches the path made of `segments` (a placeholder takes any segment). */
export function reaches(node: SegmentNode, segments: readonly string[], depth = 0): boolean {
  if (depth === segments.length) return node.ends.length > 0;
  const literal = node.literals.get(segments[depth]!);
  if (literal !== undefined && reaches(literal, segments, depth + 1)) return true;
  return node.placeholder !== null && reaches(node.placeholder, segments, depth + 1);
}
