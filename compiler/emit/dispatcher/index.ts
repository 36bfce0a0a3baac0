// .svc/dispatcher.ts: the route table compiled into a switch-based `match(method, path)`
// (SPEC §3, docs/ARCHITECTURE.md "dispatcher contract"), rendered from
// templates/dispatcher.hbs. Pure: the same routes always give the same bytes.
import type { Route } from '../../ir.ts';
import { renderTemplate } from '../templates.ts';
import type { HelperUse } from './answers.ts';
import { allowListSteps, inMethodOrder, methodBit } from './methods.ts';
import { emitSegmentWalk } from './segment-walk.ts';
import { buildTree } from './segment-tree.ts';
import { isStatic, shapesOf } from './shapes.ts';
import { commentText } from '../source-text.ts';
import { emitStaticPaths } from './static-paths.ts';

export function emitDispatcher(routes: Route[]): string {
  const ordered = [...routes].sort((a, b) => a.id - b.id);
  const shapes = ordered.flatMap(shapesOf);
  const dynamics = shapes.filter((shape) => !isStatic(shape));
  const tree = dynamics.length > 0 ? buildTree(dynamics) : null;
  const statics = emitStaticPaths(shapes.filter(isStatic), tree);
  const uses: HelperUse = { param: false, toNumber: false };
  const walk = tree !== null ? emitSegmentWalk(tree, uses) : null;
  const methods = inMethodOrder(ordered.map((route) => route.method));
  return renderTemplate('dispatcher.hbs', {
    routeList: routeList(ordered),
    constants: statics.constants,
    matchBody: statics.body,
    walk: walk?.body ?? null,
    walkFunctions: walk?.functions ?? [],
    methodBits: methods.map((name) => ({ name, bit: methodBit(name) })),
    allowSteps: allowListSteps(methods),
    uses,
  });
}

/** The header's table of routes: id, method and pattern, aligned. */
function routeList(routes: Route[]): string[] {
  const idWidth = String(routes.at(-1)?.id ?? 0).length;
  const methodWidth = Math.max(0, ...routes.map((route) => route.method.length));
  return routes.map(
    (route) => `${String(route.id).padStart(idWidth)}  ${route.method.padEnd(methodWidth)}  ${commentText(route.pattern)}`,
  );
}
