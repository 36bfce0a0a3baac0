// Pattern syntax (SPEC §2), checked piece by piece (a group prefix, a route's own
// pattern) so each problem is reported at the string that has it, then as a whole.
import { canonicalPath } from '../../runtime/routing/canonical-path.ts';
import { normalisePattern } from '../../runtime/routing/pattern.ts';

export type PatternSegment = { kind: 'literal'; value: string } | { kind: 'param'; name: string; optional: boolean };

const PLACEHOLDER = /^\{([^{}]*)\}$/;
/** Letters and digits of any script (SPEC §2 says letters, not ASCII letters), with their marks. */
const PLACEHOLDER_NAME = /^[\p{L}\p{M}\p{Nd}_-]+$/u;
const HOW_TO = 'write placeholders as a whole segment, {name} or {name?}';

/** `problems` make the pattern invalid (SVC005); `warnings` are likely typos it may mean. */
export function splitPattern(text: string): { segments: PatternSegment[]; problems: string[]; warnings: string[] } {
  const normalised = normalisePattern(text);
  const problems: string[] = [];
  const warnings: string[] = [];
  const segments: PatternSegment[] = [];
  if (normalised === '/') return { segments, problems, warnings };
  for (const raw of normalised.slice(1).split('/')) {
    const segment = readSegment(raw);
    if (typeof segment === 'string') problems.push(segment);
    else segments.push(segment);
    if (typeof segment !== 'string' && segment.kind === 'literal' && /^\s|\s$/u.test(raw)) warnings.push(spaced(raw));
  }
  return { segments, problems, warnings };
}

/**
 * `' /users'` is a route for `/%20/users`: a client sends a space as %20, which the router
 * decodes. Not an error: a path may hold a space on purpose, which a pattern writes as itself.
 */
function spaced(raw: string): string {
  const where = raw.trim() === '' ? 'is' : /^\s/u.test(raw) ? 'starts with' : 'ends with';
  return `segment '${raw}' ${where} white space, which only a request that sends it escaped (%20) reaches; remove it if it is a typo`;
}

/** A segment, or what is wrong with it. */
function readSegment(raw: string): PatternSegment | string {
  if (raw === '') return 'it has an empty segment (two slashes in a row); remove the extra slash';
  if (!raw.includes('{') && !raw.includes('}')) return literalSegment(raw);
  const placeholder = PLACEHOLDER.exec(raw);
  if (!placeholder) {
    return /^[^{}]*\{[^{}]*\}[^{}]*$/.test(raw)
      ? `segment '${raw}' mixes a placeholder with text; ${HOW_TO}`
      : `segment '${raw}' has malformed braces; ${HOW_TO}`;
  }
  const optional = placeholder[1].endsWith('?');
  const name = optional ? placeholder[1].slice(0, -1) : placeholder[1];
  if (!PLACEHOLDER_NAME.test(name)) {
    return name === ''
      ? `placeholder '${raw}' has no name; ${HOW_TO}`
      : `placeholder name '${name}' may use only letters, digits, '-' and '_'`;
  }
  return { kind: 'param', name, optional };
}

/**
 * A literal segment as requests arrive at the router (runtime/routing/canonical-path.ts):
 * escapes decoded, dot segments resolved, the query cut. Anything else never matches.
 */
function literalSegment(raw: string): PatternSegment | string {
  const canonical = canonicalPath(`/${raw}`);
  if (canonical === `/${raw}`) return { kind: 'literal', value: raw };
  const cut = raw.includes('?') ? '?' : raw.includes('#') ? '#' : null;
  if (cut !== null) return `segment '${raw}' holds '${cut}', where a request's path ends; routes match the path alone, so remove it and what follows`;
  if (canonical === null) return `segment '${raw}' holds a malformed percent-escape; write the character itself`;
  if (canonical === '/') return `segment '${raw}' is a dot segment, which is resolved before routing and never reaches a route; remove it`;
  return `segment '${raw}' never matches: requests are routed with their escapes decoded, so write it as '${canonical.slice(1)}'`;
}

/** Problems of the full pattern that no single piece shows: repeated names, optional not last. */
export function wholePatternProblems(segments: readonly PatternSegment[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  segments.forEach((segment, i) => {
    if (segment.kind !== 'param') return;
    if (seen.has(segment.name)) problems.push(`placeholder name '${segment.name}' is used twice; give each placeholder its own name`);
    seen.add(segment.name);
    if (segment.optional && i !== segments.length - 1) {
      problems.push(`optional placeholder {${segment.name}?} is not the last segment; make it required or move it to the end`);
    }
  });
  return problems;
}
