// What the segment walk returns once a shape fits the whole path and has a route for the
// request's method: the route and its parameters, converted to their declared types, or
// `bad-param` for the first one that does not fit.
import type { ParamKind, Route } from '../../ir.ts';
import { placeholders } from '../../route-shapes.ts';
import type { CodeWriter } from './code-writer.ts';
import type { Shape } from './shapes.ts';
import { describe, quote } from '../source-text.ts';

/** The helpers of the generated module the answers call. */
export interface HelperUse {
  param: boolean;
  toNumber: boolean;
}

/**
 * `captures[i]` is the number of the path segment that holds the route's i-th
 * placeholder (see `segmentStart`); a left-out optional placeholder has none. `labels`
 * are the `case` lines.
 */
export function writeAnswer(w: CodeWriter, shape: Shape, captures: number[], labels: string[], uses: HelperUse): void {
  const { route } = shape;
  const checks: string[] = [];
  const values = placeholders(route.segments).map((param, i) => {
    const segment = captures[i];
    if (segment === undefined) return 'undefined';
    return convert(param.name, param.type, segment, route, checks, uses);
  });
  const found = `return { kind: 'found', route: ${route.id}, params: [${values.join(', ')}] };`;
  const comment = `// ${describe(route)}`;
  labels.slice(0, -1).forEach((label) => w.line(label));
  if (checks.length === 0) {
    w.line(labels.at(-1)!);
    w.indented(() => w.line(`${found} ${comment}`));
  } else {
    w.block(`${labels.at(-1)} { ${comment}`, () => {
      checks.forEach((check) => w.line(check));
      w.line(found);
    });
  }
}

/** The expression of one parameter's value; checks that must pass first go to `checks`. */
function convert(name: string, type: ParamKind, segment: number, route: Route, checks: string[], uses: HelperUse): string {
  const text = segmentParam(segment);
  switch (type.kind) {
    case 'string':
      uses.param = true;
      return text;
    case 'number': {
      // A number holds no `%2F` or `%25`: the segment needs no decoding first.
      uses.toNumber = true;
      const value = `num${segment}`;
      checks.push(`const ${value} = toNumber(path.slice(${segmentStart(segment)}, end${segment}));`);
      if (type.values === undefined) checks.push(`if (${value} === undefined) return ${badParam(route, name, 'a number')};`);
      else checks.push(`if (${type.values.map((v) => `${value} !== ${v}`).join(' && ')}) return ${badParam(route, name, oneOf(type.values))};`);
      return value;
    }
    case 'boolean': {
      const value = `bool${segment}`;
      const raw = `text${segment}`;
      checks.push(`const ${raw} = path.slice(${segmentStart(segment)}, end${segment});`);
      checks.push(`const ${value} = ${raw} === 'true' ? true : ${raw} === 'false' ? false : undefined;`);
      if (type.values === undefined) checks.push(`if (${value} === undefined) return ${badParam(route, name, 'true or false')};`);
      else checks.push(`if (${value} !== ${type.values[0]}) return ${badParam(route, name, oneOf(type.values))};`);
      return value;
    }
    case 'enum': {
      uses.param = true;
      const value = `val${segment}`;
      const values = [...new Set(type.values)];
      const misses = values.map((v) => `${value} !== ${quote(v)}`).join(' && ') || 'true';
      checks.push(`const ${value} = ${text};`);
      checks.push(`if (${misses}) return ${badParam(route, name, oneOf(values))};`);
      return value;
    }
  }
}

/** Segment N spans `startN` to `endN`; the first one starts right after the leading slash. */
export const segmentStart = (n: number): string => (n === 1 ? '1' : `start${n}`);
const segmentParam = (n: number): string => `param(path, ${segmentStart(n)}, end${n})`;

/** What a placeholder accepts, in the words of the 400 the server answers with (`must be one of asc, desc`). */
const oneOf = (values: ReadonlyArray<string | number | boolean>): string => `one of ${values.join(', ')}`;

const badParam = (route: Route, name: string, expected: string): string =>
  `{ kind: 'bad-param', route: ${route.id}, param: ${quote(name)}, expected: ${quote(expected)} }`;
