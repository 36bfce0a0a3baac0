// SVC013 (a warning): a handler parameter named after another placeholder of its route.
// Placeholders are passed by position (SPEC §2), so `(page, book)` on '/{book}/{page}'
// type-checks and builds, yet `page` gets the book: a wrong value, or a 400 when the book
// is not a number. Names are not part of the contract, which is why this only warns.
import type { Node } from 'ts-morph';
import { formatLocation } from '../locations.ts';
import { splitPattern } from './pattern.ts';
import type { ArityPattern } from './registration.ts';
import type { Reporter } from './reporter.ts';
import type { CodeHandler } from './resolve/handler.ts';

/**
 * Reported at the parameter (in the controller file for a method); when the handler is
 * declared apart from the registration `call`, a note names the route, since one
 * function or method can serve several.
 */
export function checkParamOrder(handler: CodeHandler, { pattern, exact }: ArityPattern, at: Node, call: Node, reporter: Reporter): void {
  const placeholders = splitPattern(pattern).segments.flatMap((s) => (s.kind === 'param' ? [s.name] : []));
  // Under a prefix svc cannot read, or with a count SVC003 refuses, which placeholder a
  // parameter gets is unknown or already reported.
  if (!exact || handler.params.length !== placeholders.length) return;
  const here = reporter.at(at);
  const elsewhere = handler.loc.file !== here.file || handler.loc.line !== here.line || handler.loc.col !== here.col;
  const notes = elsewhere ? [`the route is registered at ${formatLocation(reporter.at(call))}`] : [];
  handler.params.forEach((param, i) => {
    const received = placeholders[i]!;
    // Exact names: one with `-` is no parameter's, and a name merely different is no swap.
    if (param.name === received || !placeholders.includes(param.name)) return;
    reporter.warn(
      'SVC013',
      `parameter '${param.name}' receives placeholder {${received}}: values are passed by position, not by name; reorder the parameters to match '${pattern}', or rename them`,
      param.loc,
      notes,
    );
  });
}
