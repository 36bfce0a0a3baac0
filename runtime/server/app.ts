// What `.svc/entry.ts` hands the runtime: everything the compiler produced, plus the
// application's own modules.
import type { Manifest } from '../manifest.ts';
import type { MatchFn } from '../routing/match.ts';
import type { RouteFile } from '../routing/router.ts';

export interface CompiledApp {
  match: MatchFn;
  manifest: Manifest;
  /** `.svc/ip-tables.json`, as emitted by compiler/emit/ip-tables.ts. */
  ipTables: unknown;
  /** Default exports of the route files, in `manifest.files` order. */
  routeFiles: RouteFile[];
  /** Classes the route files name by string, keyed `module#ClassName` (module project-relative, or `svc`). */
  classes: Record<string, new (...args: any[]) => any>;
}
