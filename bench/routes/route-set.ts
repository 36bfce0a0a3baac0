// A benchmark route set: routes as `METHOD /pattern` lines in svc syntax, the requests to
// time, and the IR the dispatcher is generated from.
import type { HttpMethod, Route, Segment } from '../../compiler/ir.ts';

export interface BenchCase {
  name: string;
  method: HttpMethod;
  path: string;
}

export interface RouteSet {
  name: string;
  routes: string[];
  /** Patterns that peers spell differently from the `:name` translation. */
  peerPatterns?: Record<string, string>;
  cases: BenchCase[];
}

export interface RouteLine {
  method: HttpMethod;
  pattern: string;
}

export const parseLine = (line: string): RouteLine => {
  const [method, pattern] = line.split(' ');
  return { method: method as HttpMethod, pattern };
};

/** `/users/{id}` → `/users/:id`, the syntax every peer router shares. */
export const peerPattern = (set: RouteSet, pattern: string): string =>
  set.peerPatterns?.[pattern] ?? pattern.replace(/\{([^}]+)\}/g, ':$1');

export function toRoutes(set: RouteSet): Route[] {
  const loc = { file: 'routes/bench.ts', line: 1, col: 1 };
  return set.routes.map(parseLine).map(({ method, pattern }, id) => ({
    id,
    method,
    pattern,
    segments: pattern.split('/').filter(Boolean).map(toSegment),
    handler: { kind: 'builtin', name: 'health' },
    middleware: [],
    file: loc.file,
    prefix: '',
    loc,
  }));
}

const toSegment = (text: string): Segment =>
  text.startsWith('{')
    ? { kind: 'param', name: text.slice(1, -1), optional: false, type: { kind: 'string' } }
    : { kind: 'literal', value: text };
