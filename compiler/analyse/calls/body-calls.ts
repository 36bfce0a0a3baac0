// A function's own body, call by call: what it asks of svc's request context and which
// error statuses it throws. Every call written in the body counts, closures inside it
// too, but a function it calls is not followed: whether, and with which context, that
// runs is not known from here. Only literals are read (`status(201)`, `get('page')`):
// a computed status or name says nothing the document could hold.
import { ts } from 'ts-morph';
import { onEveryPath } from './every-path.ts';
import { answersWithError, contextMember } from './svc-api.ts';

export interface BodyCalls {
  /** The `json()` calls: each one's type is its `T`, given or inferred from where the value goes. */
  json: ts.CallExpression[];
  form: boolean;
  text: boolean;
  /** The `json()`, `form()` and `text()` calls, whichever branch they are in. */
  reads: Set<ts.CallExpression>;
  /** Whether the body is read whichever way the function's branches go. */
  readsOnEveryPath: boolean;
  /** Query parameter names in the order met; `true` once one is read with `getAll`. */
  query: Map<string, boolean>;
  statuses: Set<number>;
  errors: Set<number>;
}

const QUERY_READS = new Set(['get', 'getAll', 'has']);
const CONTEXT_CALLS = new Set(['json', 'form', 'text', 'status']);

export function bodyCalls(fn: ts.SignatureDeclaration, checker: ts.TypeChecker): BodyCalls {
  const found: BodyCalls = { json: [], form: false, text: false, reads: new Set(), readsOnEveryPath: false, query: new Map(), statuses: new Set(), errors: new Set() };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) readCall(node, found, checker);
    else if (ts.isNewExpression(node)) readError(node, found, checker);
    ts.forEachChild(node, visit);
  };
  const body = (fn as ts.FunctionLikeDeclarationBase).body;
  if (body) visit(body);
  found.readsOnEveryPath = body !== undefined && found.reads.size > 0 && onEveryPath(body, found.reads);
  return found;
}

function readCall(call: ts.CallExpression, found: BodyCalls, checker: ts.TypeChecker): void {
  const callee = call.expression;
  const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  if (QUERY_READS.has(method)) return readQuery(call, callee as ts.PropertyAccessExpression, found, checker);
  const member = CONTEXT_CALLS.has(method) ? contextMember(callee as ts.PropertyAccessExpression, checker) : undefined;
  if (member === 'json' || member === 'form' || member === 'text') found.reads.add(call);
  if (member === 'json') found.json.push(call);
  else if (member === 'form') found.form = true;
  else if (member === 'text') found.text = true;
  else if (member === 'status') {
    const status = literalStatus(call);
    // `ctx.status()` refuses anything else (runtime/server/context.ts).
    if (status !== undefined && status >= 200 && status <= 599) found.statuses.add(status);
  } else readError(call, found, checker);
}

/** `<ctx>.query.get('name')`, `getAll`, `has`. */
function readQuery(call: ts.CallExpression, callee: ts.PropertyAccessExpression, found: BodyCalls, checker: ts.TypeChecker): void {
  const query = callee.expression;
  const [name] = call.arguments;
  if (!name || !ts.isStringLiteralLike(name) || !ts.isPropertyAccessExpression(query) || query.name.text !== 'query' || !contextMember(query, checker)) return;
  found.query.set(name.text, found.query.get(name.text) === true || callee.name.text === 'getAll');
}

/** `new HttpError(404, …)` or `abort(404, …)`. */
function readError(call: ts.CallExpression | ts.NewExpression, found: BodyCalls, checker: ts.TypeChecker): void {
  const status = literalStatus(call);
  // HttpError refuses anything else, and the answer is a 500 (runtime/errors/http-error.ts).
  if (status !== undefined && status >= 400 && status <= 599 && answersWithError(call.expression, checker)) found.errors.add(status);
}

function literalStatus(call: ts.CallExpression | ts.NewExpression): number | undefined {
  const first = call.arguments?.[0];
  const status = first && ts.isNumericLiteral(first) ? Number(first.text) : undefined;
  return status !== undefined && Number.isInteger(status) ? status : undefined;
}
