// Route tables for the dispatcher tests, written by hand in a compact pattern syntax:
// `{id}` string, `{id:number}`, `{on:boolean}`, `{state:open|closed}` enum, `{n:1|2}` number literals, `{name?}` optional.
// The analyse phase is not involved: the dispatcher takes the IR as it is.
import { transformSync } from 'esbuild';
import { emitDispatcher } from '../../compiler/emit/dispatcher/index.ts';
import type { HttpMethod, ParamKind, Route, Segment } from '../../compiler/ir.ts';
import { pathText } from '../../compiler/route-shapes.ts';
import * as canonicalPathModule from '../../runtime/routing/canonical-path.ts';
import type { MatchFn } from '../../runtime/routing/match.ts';

const loc = { file: 'routes/api.ts', line: 1, col: 1 };

/** `['GET /users/{id:number}', …]` → routes with ids in list order. */
export function table(lines: string[]): Route[] {
  return lines.map((line, id) => {
    const [method, pattern] = line.split(' ') as [HttpMethod, string];
    return route(id, method, pattern.split('/').filter(Boolean).map(segment));
  });
}

export function route(id: number, method: HttpMethod, segments: Segment[]): Route {
  return { id, method, pattern: pathText(segments), segments, handler: { kind: 'builtin', name: 'health' }, middleware: [], file: loc.file, prefix: '', loc };
}

function segment(text: string): Segment {
  if (!text.startsWith('{')) return { kind: 'literal', value: text };
  const [, name, optional, type] = /^\{([\w-]+)(\?)?(?::(.+))?\}$/.exec(text)!;
  return { kind: 'param', name, optional: optional === '?', type: paramKind(type) };
}

function paramKind(type: string | undefined): ParamKind {
  if (type === undefined) return { kind: 'string' };
  if (type === 'number') return { kind: 'number' };
  if (type === 'boolean') return { kind: 'boolean' };
  const values = type.split('|');
  return values.every((v) => /^-?\d/.test(v)) ? { kind: 'number', values: values.map(Number) } : { kind: 'enum', values };
}

export interface Dispatcher {
  /** Takes a path as a request gives it. */
  match: MatchFn;
  /** Takes a canonical path: what the server calls. */
  matchCanonical: MatchFn;
}

/**
 * The generated module, transpiled by esbuild and evaluated: what the bundle would run.
 * Its one import, `./canonical-path.ts`, is the runtime file `svc build` copies beside it.
 */
export function loadModule(routes: Route[]): Dispatcher {
  const { code } = transformSync(emitDispatcher(routes), { loader: 'ts', format: 'cjs' });
  const module = { exports: {} as Dispatcher };
  const require = (id: string): unknown => {
    if (id === './canonical-path.ts') return canonicalPathModule;
    throw new Error(`the dispatcher imports ${id}`);
  };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports;
}

/** `matchCanonical`: the switch itself, as the server calls it. */
export const loadDispatcher = (routes: Route[]): MatchFn => loadModule(routes).matchCanonical;
