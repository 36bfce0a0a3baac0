// check: problems only the whole route table shows.
import type { Diagnostic } from '../diagnostics.ts';
import type { RouteClaim, RouteTable } from '../ir.ts';
import { checkDocsFiles } from './docs-files.ts';
import { checkOverlaps } from './overlaps.ts';
import { checkShadowedEndpoints } from './shadowed-endpoints.ts';

/**
 * `unresolved`: registrations kept out of the table for their handler, merged back in
 * registration order so that "the first registration" of a duplicate is the first one
 * written. The built-in endpoints stay last (their ids are not comparable with them).
 */
export function check(table: RouteTable, unresolved: readonly RouteClaim[] = []): Diagnostic[] {
  const builtin = table.routes.filter((route) => route.handler.kind === 'builtin');
  const application = [...table.routes.filter((route) => route.handler.kind !== 'builtin'), ...unresolved].sort((a, b) => a.id - b.id);
  return [...checkOverlaps([...application, ...builtin]), ...checkDocsFiles([...application, ...builtin]), ...checkShadowedEndpoints(table.routes)];
}
