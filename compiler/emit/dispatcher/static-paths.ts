// The body of `matchCanonical`: a switch over every path a static shape matches, by length and
// then by path, each answered with preallocated results. A method with no static route
// there goes on to the segment walk only when some placeholder shape fits that path too.
import { allowList } from '../../../runtime/routing/allow.ts';
import type { HttpMethod } from '../../ir.ts';
import { pathText } from '../../route-shapes.ts';
import { byLength } from './by-length.ts';
import { CodeWriter } from './code-writer.ts';
import { bitsExpression, writeMethodSwitch } from './methods.ts';
import { reaches, type SegmentNode } from './segment-tree.ts';
import type { Shape } from './shapes.ts';
import { compareText } from '../../text-order.ts';
import { describe, quote } from '../source-text.ts';

export interface StaticPaths {
  /** `const ROUTE_3 = shared({ … });` lines, in route order. */
  constants: string[];
  body: string;
}

/** `dynamics`: the tree of the shapes with a placeholder, or null when there are none. */
export function emitStaticPaths(statics: Shape[], dynamics: SegmentNode | null): StaticPaths {
  const byPath = new Map<string, Shape[]>();
  for (const shape of statics) {
    const path = pathText(shape.segments);
    byPath.set(path, [...(byPath.get(path) ?? []), shape]);
  }
  if (dynamics !== null && !byPath.has('/')) byPath.set('/', []);

  const constants = new Constants();
  const w = new CodeWriter(1);
  const fallback = dynamics !== null ? 'return matchSegments(method, path, 0);' : 'return NOT_FOUND;';
  const lengths = byLength(byPath);
  if (lengths.length > 0) {
    w.line('// By length first: a jump, then only the paths of that length are compared.');
    w.block('switch (path.length) {', () => {
      for (const [length, group] of lengths) {
        w.line(`case ${length}:`);
        w.indented(() => {
          if (group.length === 1) {
            const [[path, shapes]] = group;
            w.block(`if (path === ${quote(path)}) {`, () => writeAnswers(w, path, shapes, dynamics, constants));
          } else {
            w.block('switch (path) {', () => {
              for (const [path, shapes] of group) {
                w.line(`case ${quote(path)}:`);
                w.indented(() => writeAnswers(w, path, shapes, dynamics, constants));
              }
            });
          }
          w.line('break;');
        });
      }
    });
  }
  w.line(fallback);
  return { constants: constants.lines(), body: w.toString() };
}

/** One static path: the static route of each method, then the segment walk or a 405. */
function writeAnswers(w: CodeWriter, path: string, shapes: Shape[], dynamics: SegmentNode | null, constants: Constants): void {
  if (shapes.length === 0) {
    w.line('return NOT_FOUND;');
    return;
  }
  const methods = writeMethodSwitch(w, shapes, ({ route, absent }, labels) => {
    labels.forEach((label) => w.line(label));
    w.indented(() => w.line(`return ${constants.found(route.id, absent)}; // ${describe(route)}`));
  });
  const segments = path === '/' ? [] : path.slice(1).split('/');
  if (dynamics !== null && reaches(dynamics, segments)) {
    w.line(`return matchSegments(method, path, ${bitsExpression(methods)});`);
  } else {
    w.line(`return ${constants.notAllowed(methods)};`);
  }
}

/** The preallocated results, declared once each: routes in id order, then 405s by name. */
class Constants {
  private readonly routes = new Map<number, string>();
  private readonly notAlloweds = new Map<string, string>();

  found(id: number, absent: boolean): string {
    const name = `ROUTE_${id}`;
    this.routes.set(id, `const ${name} = shared({ kind: 'found', route: ${id}, params: [${absent ? 'undefined' : ''}] });`);
    return name;
  }

  notAllowed(methods: HttpMethod[]): string {
    const name = `NOT_ALLOWED_${methods.join('_')}`;
    const allow = allowList(methods).map(quote).join(', ');
    this.notAlloweds.set(name, `const ${name} = shared({ kind: 'method-not-allowed', allow: [${allow}] });`);
    return name;
  }

  lines(): string[] {
    const routes = [...this.routes].sort(([a], [b]) => a - b);
    const notAlloweds = [...this.notAlloweds].sort(([a], [b]) => compareText(a, b));
    return [...routes, ...notAlloweds].map(([, line]) => line);
  }
}
