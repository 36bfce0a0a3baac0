// SVC003: a handler's parameters are the pattern's placeholders, in order (SPEC §2).
import type { Node } from 'ts-morph';
import { splitPattern, type PatternSegment } from './pattern.ts';
import type { ArityPattern } from './registration.ts';
import { formatLocation } from '../locations.ts';
import type { Reporter } from './reporter.ts';
import type { CodeHandler } from './resolve/handler.ts';

type Placeholder = Extract<PatternSegment, { kind: 'param' }>;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const CONTEXT_TYPE = /^(Context|IncomingMessage|Request)$/;
const CONTEXT_NOTE = 'the request context is no parameter: a closure written `function (this: Context, …)` reaches it as `this`, a controller method as `this.ctx`';

/**
 * Reported at the handler argument; a note points at the declaration when it is elsewhere.
 * Against the route's own pattern alone (`exact` false), only what no prefix can mend.
 */
export function checkArity(handler: CodeHandler, { pattern, exact }: ArityPattern, at: Node, reporter: Reporter): void {
  const { params } = handler;
  const placeholders = splitPattern(pattern).segments.filter((s): s is Placeholder => s.kind === 'param');
  const here = reporter.at(at);
  const elsewhere = handler.loc.file !== here.file || handler.loc.line !== here.line || handler.loc.col !== here.col;
  const notes = elsewhere ? [`the handler is declared at ${formatLocation(handler.loc)}`] : [];
  if (exact ? params.length !== placeholders.length : params.length < placeholders.length) {
    const names = (list: Array<{ name: string }>) => (list.length ? ` (${list.map((p) => p.name).join(', ')})` : '');
    const more = exact ? '' : ', and the group prefix may add more';
    // Hono's `(c) =>` and Express's `(req, res) =>` take the request as a parameter; here it is `this`.
    const asContext = params.slice(placeholders.length).some((p) => CONTEXT_TYPE.test(p.typeText));
    reporter.error(
      'SVC003',
      `the handler takes ${plural(params.length, 'parameter')}${names(params)} but '${pattern}' has ${plural(placeholders.length, 'placeholder')}${names(placeholders)}${more}; declare one parameter per placeholder, in order`,
      at,
      asContext ? [...notes, CONTEXT_NOTE] : notes,
    );
    return;
  }
  const last = placeholders.at(-1);
  const param = params.at(-1);
  if (last?.optional && param && !param.optional) {
    reporter.error('SVC003', `placeholder {${last.name}?} is optional but parameter '${param.name}' is not; declare it as \`${param.name}?\` or give it a default value`, at, notes);
  }
  // Which placeholder a parameter takes depends on the prefix's.
  if (!exact) return;
  params.forEach((p, i) => {
    if (p.kind !== null) return;
    reporter.error(
      'SVC003',
      `parameter '${p.name}' takes placeholder {${placeholders[i]!.name}} as ${p.typeText}, which no path segment converts to; type it string, number, boolean, or a union of string or of number literals`,
      at,
      // `(ctx: Context) => …` on a route with one placeholder: the count fits, the intent does not.
      CONTEXT_TYPE.test(p.typeText) ? [...notes, CONTEXT_NOTE] : notes,
    );
  });
}
