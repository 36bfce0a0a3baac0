// check: problems only the whole route table shows.
import type { Diagnostic } from '../diagnostics.ts';
import type { RouteTable } from '../ir.ts';
import { checkOverlaps } from './overlaps.ts';

export function check(table: RouteTable): Diagnostic[] {
  return checkOverlaps(table.routes);
}
