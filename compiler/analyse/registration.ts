// What the syntactic walk of a route file yields, before any name is resolved: one
// `Registration` per route call, in the order the runtime will run them.
import type { ArrayLiteralExpression, ArrowFunction, Expression, FunctionExpression, Identifier, Node, NoSubstitutionTemplateLiteral, StringLiteral } from 'ts-morph';
import type { HttpMethod } from '../ir.ts';

export type StringNode = StringLiteral | NoSubstitutionTemplateLiteral;

/** The options of the enclosing groups, accumulated outer first. */
export interface GroupScope {
  /** Joined prefixes (`joinPattern`), `''` at the top level. */
  prefix: string;
  namespace: string;
  middleware: MiddlewareSpec[];
  /** A malformed prefix or option above: its routes are analysed but kept out of the table. */
  broken: boolean;
  /** A prefix above could not be read (not a literal, malformed): placeholders of its own are unknown. */
  openPrefix: boolean;
}

export type HandlerSpec =
  | { kind: 'closure'; node: ArrowFunction | FunctionExpression | Identifier }
  | { kind: 'reference'; node: Expression; classNode: Expression; method: StringNode }
  | { kind: 'name'; node: Expression; classNode: StringNode; className: string; method: StringNode; namespace: string };

export type MiddlewareSpec =
  | { kind: 'reference'; node: Node; classNode: Expression; args: ArrayLiteralExpression | null }
  | { kind: 'name'; node: Node; classNode: StringNode; className: string; args: ArrayLiteralExpression | null };

/**
 * The full pattern (`exact`), or the route's own when a group prefix above could not be
 * read: the handler must then take at least its placeholders, the last one last.
 */
export interface ArityPattern {
  pattern: string;
  exact: boolean;
}

export interface Registration {
  method: HttpMethod;
  /** The registration call: the route's `loc`. */
  call: Node;
  /** The full pattern after the group prefixes. */
  pattern: string;
  /** False when the pattern is not a literal or it (or a prefix above it) has an SVC005/SVC006 problem. */
  patternValid: boolean;
  /** What the handler's parameters can be checked against (SVC003), null when its own pattern cannot be read. */
  arity: ArityPattern | null;
  handler: HandlerSpec | null;
  scope: GroupScope;
}
