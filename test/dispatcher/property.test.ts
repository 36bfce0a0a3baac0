// Random route tables and random raw request targets: the generated dispatcher behind
// canonicalPath must answer exactly what the naive reference matcher answers.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { HttpMethod, ParamKind, Route, Segment } from '../../compiler/ir.ts';
import { pathShapes, shapeKey } from '../../compiler/route-shapes.ts';
import type { MatchFn } from '../../runtime/routing/match.ts';
import { canonicalPath } from '../../runtime/routing/canonical-path.ts';
import { referenceMatch, referenceSegments } from '../support/reference-matcher.ts';
import { github } from '../../bench/routes/github.ts';
import { toRoutes } from '../../bench/routes/route-set.ts';
import { loadDispatcher, route } from './fixtures.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const LITERALS = ['a', 'b', 'users', 'new', '42', 'é'];
const ENUM = ['a', 'new', 'x/y'];
const NUMBERS = ['7', '-3.5', '007', '1.', '1.0', '-0', '0', '1e3', '+1', '99999999999999999999', 'true', 'false', 'TRUE'];
const NOISE = ['', '.', '..', '%2e', '%2E%2e', '.%2E', '%2F', 'a%2Fb', '%25', '%252F', 'x%2F..', '%', '%G1', '%2', '%E0%A4%A', '%C0%AF'];
const SUFFIXES = ['', '?q=1', '?x=%', '#top', '?a/../b'];

/** A literal segment, or the type of a placeholder. */
type Draft = { method: HttpMethod; segments: Array<string | ParamKind>; optional: boolean };

const draftSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<string | ParamKind>(...LITERALS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | ParamKind>(
      { kind: 'string' },
      { kind: 'number' },
      { kind: 'number', values: [-3.5, 7] },
      { kind: 'boolean' },
      { kind: 'boolean', values: [true] },
      { kind: 'enum', values: ENUM },
    ),
  },
);
const draft = fc.record({
  method: fc.constantFrom(...METHODS),
  segments: fc.array(draftSegment, { maxLength: 4 }),
  optional: fc.boolean(),
});

/** Routes the check phase would accept: no two shapes (optional expanded) alike on one method (SVC001, SVC002). */
function validTable(drafts: Draft[]): Route[] {
  const taken = new Set<string>();
  const routes: Route[] = [];
  for (const { method, segments: parts, optional } of drafts) {
    const segments = parts.map((part, i): Segment => {
      if (typeof part === 'string') return { kind: 'literal', value: part };
      const isLast = i === parts.length - 1;
      return { kind: 'param', name: `p${i}`, optional: optional && isLast, type: part };
    });
    const keys = pathShapes(segments).map((shape) => `${method} ${shapeKey(shape.segments)}`);
    if (keys.some((key) => taken.has(key))) continue;
    keys.forEach((key) => taken.add(key));
    routes.push(route(routes.length, method, segments));
  }
  return routes;
}

/** `text` with the characters picked by `mask` percent-escaped (UTF-8), in either hex case. */
function escape(text: string, mask: number, lower: boolean): string {
  return [...text]
    .map((char, i) => {
      if (((mask >> i) & 1) === 0) return char;
      const hex = Buffer.from(char).toString('hex').replace(/../g, '%$&');
      return lower ? hex.toLowerCase() : hex.toUpperCase();
    })
    .join('');
}

const method = fc.constantFrom<string>(...METHODS, 'HEAD');

/** `null` three times out of four. */
const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });

const literalsOf = (route: Route): string[] => route.segments.flatMap((s) => (s.kind === 'literal' ? [s.value] : []));

/** Requests with raw targets: random words and noise, or one route's pattern filled in, some noise added, mostly with its method. */
function request(routes: Route[]) {
  const words = [...new Set([...routes.flatMap(literalsOf), ...LITERALS, ...ENUM, ...NUMBERS])];
  const word = fc
    .record({ text: fc.constantFrom(...words), mask: fc.nat(), lower: fc.boolean() })
    .map(({ text, mask, lower }) => escape(text, mask, lower));
  const noise = fc.constantFrom(...NOISE);
  const piece = fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: noise });
  const anyPieces = fc.array(piece, { maxLength: 6 });
  const routePieces = fc
    .record({ route: fc.constantFrom(...routes), fill: fc.array(word, { minLength: 8, maxLength: 8 }), mask: fc.nat(), extra: sometimes(noise), at: fc.nat(5), other: sometimes(method) })
    .map(({ route, fill, mask, extra, at, other }) => {
      const pieces = route.segments.map((s, i) => (s.kind === 'literal' ? escape(s.value, mask >> (i * 4), false) : fill[i % fill.length]));
      if (extra !== null) pieces.splice(at, 0, extra);
      return { method: other ?? route.method, pieces };
    });
  return fc
    .record({
      request: fc.oneof(fc.record({ method, pieces: anyPieces }), routePieces),
      trailing: fc.boolean(),
      suffix: fc.constantFrom(...SUFFIXES),
    })
    .map(({ request: { method, pieces }, trailing, suffix }) => ({ method, target: `/${pieces.join('/')}${trailing ? '/' : ''}${suffix}` }));
}

const scenario = fc.array(draft, { minLength: 1, maxLength: 12 }).chain((drafts) => {
  const routes = validTable(drafts);
  return fc.record({ routes: fc.constant(routes), requests: fc.array(request(routes), { minLength: 1, maxLength: 16 }) });
});

/** The dispatcher behind canonicalPath answers each request as the reference does. */
function agree(routes: Route[], match: MatchFn, requests: Array<{ method: string; target: string }>): void {
  for (const { method, target } of requests) {
    const canonical = canonicalPath(target);
    const segments = referenceSegments(target);
    assert.equal(canonical === null, segments === null, `malformed? ${target}`);
    if (canonical === null || segments === null) continue;
    assert.equal(canonicalPath(canonical), canonical, `idempotent: ${target}`);
    const decoded = canonical === '/' ? [] : canonical.slice(1).split('/').map(decodeURIComponent);
    assert.deepEqual(decoded, segments, `segments of ${target}`);
    assert.deepStrictEqual(match(method, canonical), referenceMatch(routes, method, segments), `${method} ${target}`);
  }
}

it('agrees with the reference matcher on random tables and targets', () => {
  fc.assert(
    fc.property(scenario, ({ routes, requests }) => agree(routes, loadDispatcher(routes), requests)),
    { numRuns: 1000 },
  );
});

it('agrees with the reference matcher on a 300-route table, split into functions and grouped by length', () => {
  const routes = toRoutes(github);
  const match = loadDispatcher(routes);
  fc.assert(
    fc.property(fc.array(request(routes), { minLength: 1, maxLength: 16 }), (requests) => agree(routes, match, requests)),
    { numRuns: 1000 },
  );
});
