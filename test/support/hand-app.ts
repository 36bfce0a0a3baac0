// A `CompiledApp` put together by hand, for runtime tests that should not depend on the
// compiler: the route files are plain functions, the manifest is derived from the same
// list, and `match` is a small reference implementation of the dispatcher contract
// (runtime/routing/match.ts), not the generated switch.
import { DEFAULT_CONFIG, type SvcConfig } from '../../runtime/config.ts';
import type { MiddlewareClass } from '../../runtime/knots/middleware.ts';
import type { Manifest, ManifestMiddleware, ManifestRoute } from '../../runtime/manifest.ts';
import type { Match } from '../../runtime/routing/match.ts';
import { normalisePattern } from '../../runtime/routing/pattern.ts';
import type { Handler, MiddlewareEntry, Router } from '../../runtime/routing/router.ts';
import type { CompiledApp } from '../../runtime/server/app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface HandRoute {
  method: Method;
  pattern: string;
  handler: Handler;
  middleware?: MiddlewareEntry[];
  /** Typed placeholders: the dispatcher converts them or answers `bad-param`. */
  numbers?: string[];
}

export interface HandAppOptions {
  /** Classes named by string, by class name (module `test`). */
  classes?: Record<string, new (...args: any[]) => any>;
  config?: Partial<SvcConfig>;
  /** Builtin endpoints appended after the application routes. */
  builtins?: Array<{ pattern: string; name: 'docs' | 'health' | 'dashboard' | 'metrics' }>;
}

type Segment = { literal: string } | { param: string; optional: boolean; number: boolean };

interface Entry {
  method: string;
  segments: Segment[];
}

export function handApp(routes: HandRoute[], options: HandAppOptions = {}): CompiledApp {
  const manifestRoutes: ManifestRoute[] = routes.map((route, id) => ({
    id,
    method: route.method,
    pattern: normalisePattern(route.pattern),
    params: parse(route.pattern, []).flatMap((s) => ('param' in s ? [s.param] : [])),
    handler: typeof route.handler === 'function' ? { kind: 'closure' } : { kind: 'controller', module: 'test', className: className(route.handler[0]), method: route.handler[1] },
    middleware: (route.middleware ?? []).map(middlewareRef),
    source: `routes/test.ts:${id + 1}:3`,
  }));
  for (const builtin of options.builtins ?? []) {
    manifestRoutes.push({
      id: manifestRoutes.length,
      method: 'GET',
      pattern: builtin.pattern,
      params: [],
      handler: { kind: 'builtin', name: builtin.name },
      middleware: [],
      source: 'svc.json',
    });
  }
  const entries: Entry[] = manifestRoutes.map((route, id) => ({ method: route.method, segments: parse(route.pattern, routes[id]?.numbers ?? []) }));
  const manifest: Manifest = {
    framework: '0.0.0',
    routes: manifestRoutes,
    files: ['routes/test.ts'],
    config: { ...DEFAULT_CONFIG, ...options.config },
  };
  const classes = Object.fromEntries(Object.entries(options.classes ?? {}).map(([name, cls]) => [`test#${name}`, cls]));
  return { match: (method, path) => match(entries, method, path), manifest, ipTables: NO_IP_RULES, routeFiles: [routeFile(routes)], classes };
}

/** One route file registering every route; routes with middleware go through a group, as users write them. */
function routeFile(routes: HandRoute[]) {
  return (router: Router): void => {
    for (const route of routes) {
      const register = (r: Router) => r[route.method.toLowerCase() as 'get'](route.pattern, route.handler);
      if (route.middleware?.length) router.group({ middleware: route.middleware }, register);
      else register(router);
    }
  };
}

const className = (ref: Function | string): string => (typeof ref === 'string' ? ref : ref.name);

function middlewareRef(entry: MiddlewareEntry): ManifestMiddleware {
  const [ref, args] = Array.isArray(entry) ? (entry as [MiddlewareClass | string, unknown[]]) : [entry as MiddlewareClass | string, []];
  return { module: 'test', className: className(ref), args: [...args] };
}

const NO_LIST = { v4: [], v6: [] };
/** Tables without a rule; a test that wants IP rules passes its own `ipFilter`. */
const NO_IP_RULES = { global: { whitelist: NO_LIST, blacklist: NO_LIST }, routes: {}, trustProxy: NO_LIST };

function parse(pattern: string, numbers: string[]): Segment[] {
  const path = normalisePattern(pattern);
  if (path === '/') return [];
  return path
    .slice(1)
    .split('/')
    .map((text) => {
      if (!text.startsWith('{')) return { literal: text };
      const optional = text.endsWith('?}');
      const param = text.slice(1, optional ? -2 : -1);
      return { param, optional, number: numbers.includes(param) };
    });
}

function match(entries: Entry[], method: string, path: string): Match {
  const parts = path === '/' ? [] : path.slice(1).split('/');
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allowed = new Set<string>();
  let best: { id: number; values: string[]; rank: string } | null = null;
  entries.forEach((entry, id) => {
    const values = capture(entry.segments, parts);
    if (!values) return;
    allowed.add(entry.method);
    // Literal (0) before placeholder (1), position by position: the contract's precedence.
    const rank = entry.segments.map((s) => ('literal' in s ? '0' : '1')).join('');
    if (entry.method === wanted && (!best || rank < best.rank)) best = { id, values, rank };
  });
  const found = best as { id: number; values: string[] } | null;
  if (found) {
    const params: unknown[] = [];
    const segments = entries[found.id]!.segments.filter((s): s is Extract<Segment, { param: string }> => 'param' in s);
    for (const [i, segment] of segments.entries()) {
      const raw = found.values[i];
      const text = raw === undefined ? undefined : raw.replaceAll('%2F', '/').replaceAll('%25', '%');
      if (segment.number && text !== undefined) {
        const value = Number(text);
        if (!Number.isFinite(value)) return { kind: 'bad-param', route: found.id, param: segment.param, expected: 'a number' };
        params.push(value);
      } else params.push(text);
    }
    return { kind: 'found', route: found.id, params };
  }
  if (allowed.size === 0) return { kind: 'not-found' };
  if (allowed.has('GET')) allowed.add('HEAD');
  allowed.add('OPTIONS');
  return { kind: 'method-not-allowed', allow: [...allowed].sort() };
}

function capture(segments: Segment[], parts: string[]): string[] | null {
  const values: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i];
    if ('literal' in segment) {
      if (part !== segment.literal) return null;
    } else if (part === undefined) {
      if (!segment.optional) return null;
    } else values.push(part);
  }
  return parts.length <= segments.length ? values : null;
}
