// A naive router to check the generated dispatcher against: it decodes the request
// target its own simple way and compares it with every route in turn, which is exactly
// what the dispatcher must never do per request.
import type { Route } from '../../compiler/ir.ts';
import type { Match } from '../../runtime/routing/match.ts';

/** The target's path segments, fully decoded, dot and empty ones resolved; `null` when an escape is malformed. */
export function referenceSegments(target: string): string[] | null {
  if (!target.startsWith('/')) return null;
  const segments: string[] = [];
  for (const raw of target.split(/[?#]/)[0].split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '..') segments.pop();
    else if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return segments;
}

export function referenceMatch(routes: Route[], method: string, segments: string[]): Match {
  const fitting = routes.flatMap((route) => {
    const params = fit(route, segments);
    return params ? [{ route, params }] : [];
  });
  const own = fitting.filter(({ route }) => route.method === method || (method === 'HEAD' && route.method === 'GET'));
  if (own.length > 0) {
    const best = own.reduce((a, b) => (moreSpecific(b.route, a.route, segments.length) ? b : a));
    return convert(best.route, best.params);
  }
  if (fitting.length === 0) return { kind: 'not-found' };
  const allow = new Set(['OPTIONS']);
  for (const { route } of fitting) {
    allow.add(route.method);
    if (route.method === 'GET') allow.add('HEAD');
  }
  return { kind: 'method-not-allowed', allow: [...allow].sort() };
}

/** The placeholder values (`undefined` for a left-out optional one) when `route` fits, else `null`. */
function fit(route: Route, segments: string[]): Array<string | undefined> | null {
  const last = route.segments.at(-1);
  const leftOut = last?.kind === 'param' && last.optional && segments.length === route.segments.length - 1;
  if (segments.length !== route.segments.length && !leftOut) return null;
  const params: Array<string | undefined> = [];
  for (const [i, pattern] of route.segments.entries()) {
    if (i === segments.length) params.push(undefined);
    else if (pattern.kind === 'param') params.push(segments[i]);
    else if (pattern.value !== segments[i]) return null;
  }
  return params;
}

/** Over the `length` matched segments, at the first position where they differ a literal beats a placeholder; on a tie the first registered wins. */
function moreSpecific(a: Route, b: Route, length: number): boolean {
  for (let i = 0; i < length; i++) {
    const aLiteral = a.segments[i].kind === 'literal';
    if (aLiteral !== (b.segments[i].kind === 'literal')) return aLiteral;
  }
  return a.id < b.id;
}

function convert(route: Route, values: Array<string | undefined>): Match {
  const placeholders = route.segments.flatMap((s) => (s.kind === 'param' ? [s] : []));
  const params: unknown[] = [];
  for (const [i, { name, type }] of placeholders.entries()) {
    const value = values[i];
    if (value === undefined || type.kind === 'string') {
      params.push(value);
    } else if (type.kind === 'number') {
      // Decimal without leading zeros or trailing fraction zeros, and exact: one spelling per value.
      const number = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/.test(value) && value !== '-0' && String(Number(value)) === value ? Number(value) : NaN;
      const fits = type.values === undefined ? Number.isFinite(number) : type.values.includes(number);
      if (!fits) return { kind: 'bad-param', route: route.id, param: name, expected: type.values ? `one of ${type.values.join(', ')}` : 'a number' };
      params.push(number);
    } else if (type.kind === 'boolean') {
      const fits = type.values === undefined ? value === 'true' || value === 'false' : value === String(type.values[0]);
      if (!fits) return { kind: 'bad-param', route: route.id, param: name, expected: type.values ? `one of ${type.values[0]}` : 'true or false' };
      params.push(value === 'true');
    } else {
      const values = [...new Set(type.values)];
      if (!values.includes(value)) return { kind: 'bad-param', route: route.id, param: name, expected: `one of ${values.join(', ')}` };
      params.push(value);
    }
  }
  return { kind: 'found', route: route.id, params };
}
