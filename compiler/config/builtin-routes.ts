// The built-in endpoints of svc.json `endpoints` as GET routes, appended to the route
// table after the application's routes so that the dispatcher matches them like any
// other route and the overlap check (compiler/check/overlaps.ts) reports collisions.
import type { Handler, Route, Segment, SourceLocation } from '../ir.ts';
import type { SvcConfig } from '../../runtime/config.ts';
import { pathText } from '../route-shapes.ts';
import { CONFIG_FILE } from './index.ts';

type BuiltinName = Extract<Handler, { kind: 'builtin' }>['name'];

/** JSON path of the svc.json key that configures each built-in route. */
export const BUILTIN_CONFIG_KEY: Record<BuiltinName, string> = {
  docs: 'endpoints.docs',
  'docs-asset': 'endpoints.docs',
  health: 'endpoints.health',
  dashboard: 'endpoints.dashboard',
  metrics: 'endpoints.metrics',
};

/**
 * Routes numbered from `firstId`. `locations` (from `loadConfig`) points each route at
 * its key in svc.json; a key left to its default points at 1:1.
 */
export function builtinRoutes(config: SvcConfig, firstId: number, locations: Record<string, SourceLocation> = {}): Route[] {
  const { docs, health, dashboard, metrics } = config.endpoints;
  const endpoints: Array<[BuiltinName, string, Segment[]]> = [
    ['docs', docs, []],
    ['docs-asset', docs, [{ kind: 'param', name: 'asset', optional: false, type: { kind: 'string' } }]],
    ['health', health, []],
    ['dashboard', dashboard, []],
    ['metrics', metrics, []],
  ];
  return endpoints.map(([name, path, tail], i) => {
    const segments: Segment[] = [...path.split('/').filter(Boolean).map((value): Segment => ({ kind: 'literal', value })), ...tail];
    return {
      id: firstId + i,
      method: 'GET',
      pattern: pathText(segments),
      segments,
      handler: { kind: 'builtin', name },
      middleware: [],
      file: CONFIG_FILE,
      prefix: '',
      loc: locations[BUILTIN_CONFIG_KEY[name]] ?? { file: CONFIG_FILE, line: 1, col: 1 },
    };
  });
}
