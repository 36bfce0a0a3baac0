// One registration → one IR route, once its handler and middleware are resolved.
import { join } from 'node:path';
import type { MiddlewareRef, Route, RouteClaim, Segment } from '../ir.ts';
import { checkArity } from './arity.ts';
import { checkParamOrder } from './param-order.ts';
import { splitPattern } from './pattern.ts';
import type { MiddlewareSpec, Registration } from './registration.ts';
import type { Reporter } from './reporter.ts';
import type { Resolver } from './resolve/conventions.ts';
import { resolveHandler, type CodeHandler } from './resolve/handler.ts';

/**
 * Null when the route cannot take part in the whole-table checks (its pattern or handler
 * is broken); its problems are reported already. Middleware that failed is left out.
 */
export function toRoute(id: number, registration: Registration, resolver: Resolver, middleware: ReadonlyMap<MiddlewareSpec, MiddlewareRef | null>): Route | null {
  const handler = checkedHandler(registration, resolver);
  if (!handler || !registration.patternValid) return null;
  const parsed = splitPattern(registration.pattern).segments;
  let position = 0;
  const segments = parsed.map((s): Segment =>
    s.kind === 'literal' ? s : { ...s, type: handler.params[position++]?.kind ?? { kind: 'string' } },
  );
  const loc = resolver.reporter.at(registration.call);
  return {
    id,
    method: registration.method,
    pattern: registration.pattern,
    segments,
    handler,
    middleware: registration.scope.middleware.flatMap((spec) => middleware.get(spec) ?? []),
    file: loc.file,
    prefix: registration.scope.prefix,
    loc,
  };
}

/** The handler, resolved (SVC004) and checked against the placeholders the registration is known to have (SVC003, SVC013). */
export function checkedHandler({ handler: spec, arity, call }: Registration, resolver: Resolver): CodeHandler | null {
  const handler = spec && resolveHandler(spec, resolver);
  // A handler in a file that does not parse has the parameters the parser's recovery made
  // up (`(id: number { return 1 }` takes `id` and `{ return 1 }`): its SVC010 says what is wrong.
  if (handler && arity && parses(handler, resolver)) {
    checkArity(handler, arity, spec!.node, resolver.reporter);
    checkParamOrder(handler, arity, spec!.node, call, resolver.reporter);
  }
  return handler;
}

/**
 * The paths of a registration with a valid pattern whose handler did not resolve
 * (SVC004, SVC006): it is kept out of the table, but a duplicate of it is still a problem
 * to report in this run, not in the next one once the handler is fixed.
 */
export function unresolvedClaim(id: number, registration: Registration, reporter: Reporter): RouteClaim | null {
  if (!registration.patternValid) return null;
  const segments = splitPattern(registration.pattern).segments.map((s): Segment => (s.kind === 'literal' ? s : { ...s, type: { kind: 'string' } }));
  return { id, method: registration.method, pattern: registration.pattern, segments, handler: null, loc: reporter.at(registration.call) };
}

function parses(handler: CodeHandler, resolver: Resolver): boolean {
  const file = resolver.project.getSourceFile(join(resolver.root, handler.loc.file));
  return file === undefined || resolver.project.getProgram().compilerObject.getSyntacticDiagnostics(file.compilerNode).length === 0;
}
