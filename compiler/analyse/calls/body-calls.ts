// A function's body, call by call: what it asks of svc's request context and which error
// statuses it throws. Every call written in the body counts, closures inside it too, and
// so do the calls of the application's own functions it calls (`this.input()`,
// `findOrFail(id)`), followed into their bodies: the request has one context, so a
// helper handed it reads what the handler would. Functions of packages and of svc itself
// are not followed. Only literals are read (`status(201)`, `get('page')`): a computed
// status or name says nothing the document could hold. So an error class of the
// application's own counts by the literal its constructor passes on (`super(404, detail)`).
import { ts } from 'ts-morph';
import { onEveryPath } from './every-path.ts';
import { answersWithError, contextMember, isContextQuery } from './svc-api.ts';
import { followedFunction, type FollowedFunction } from './followed-function.ts';

export interface BodyCalls {
  /** The `json()` calls: each one's type is its `T`, given or inferred from where the value goes. */
  json: ts.CallExpression[];
  form: boolean;
  text: boolean;
  /** How the function reads the request body, itself or through the functions it calls. */
  reading: Reading;
  /** Query parameter names in the order met; `true` once one is read with `getAll`. */
  query: Map<string, boolean>;
  statuses: Set<number>;
  /** The `status(n)` calls with a literal `n`, to tell whether the function's own body sets one on every path. */
  statusCalls: Set<ts.Node>;
  /** It does: nothing returned is answered with that status, not 204. */
  statusAlways: boolean;
  errors: Set<number>;
}

/** Not at all; whichever way its branches go; or only on some paths (a branch, a loop, a closure). */
export type Reading = 'never' | 'always' | 'sometimes';

const QUERY_READS = new Set(['get', 'getAll', 'has']);
const CONTEXT_CALLS = new Set(['json', 'form', 'text', 'status']);

interface Walk {
  readonly checker: ts.TypeChecker;
  readonly found: BodyCalls;
  /** Each followed function's reading, once walked: a helper called twice is walked once. */
  readonly followed: Map<FollowedFunction, Reading>;
}

export function bodyCalls(fn: ts.SignatureDeclaration, checker: ts.TypeChecker): BodyCalls {
  const found: BodyCalls = { json: [], form: false, text: false, reading: 'never', query: new Map(), statuses: new Set(), statusCalls: new Set(), statusAlways: false, errors: new Set() };
  const body = (fn as ts.FunctionLikeDeclarationBase).body;
  found.reading = readFunction(body, { checker, found, followed: new Map() });
  // Only the handler's own calls: a status set in a helper it calls may be set on some paths only.
  found.statusAlways = body !== undefined && found.statusCalls.size > 0 && onEveryPath(body, found.statusCalls);
  return found;
}

function readFunction(body: ts.Node | undefined, walk: Walk): Reading {
  if (body === undefined) return 'never';
  // The calls that read the body whenever they run, and whether some other call may.
  const reads = new Set<ts.Node>();
  let sometimes = false;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const reading = ts.isCallExpression(node) ? readCall(node, walk) : readError(node, walk) ? 'never' : readFollowed(node, walk);
      if (reading === 'always') reads.add(node);
      else if (reading === 'sometimes') sometimes = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  if (reads.size > 0 && onEveryPath(body, reads)) return 'always';
  return reads.size > 0 || sometimes ? 'sometimes' : 'never';
}

function readCall(call: ts.CallExpression, walk: Walk): Reading {
  const { checker, found } = walk;
  const callee = call.expression;
  const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  if (QUERY_READS.has(method) && readQuery(call, callee as ts.PropertyAccessExpression, walk)) return 'never';
  const member = CONTEXT_CALLS.has(method) ? contextMember(callee as ts.PropertyAccessExpression, checker) : undefined;
  switch (member) {
    case 'json':
      found.json.push(call);
      return 'always';
    case 'form':
      found.form = true;
      return 'always';
    case 'text':
      found.text = true;
      return 'always';
    case 'status':
      readStatus(call, found);
      return 'never';
  }
  return readError(call, walk) ? 'never' : readFollowed(call, walk);
}

/** `ctx.status(201)`: `ctx.status()` refuses anything outside 200–599 (runtime/server/context.ts). */
function readStatus(call: ts.CallExpression, found: BodyCalls): void {
  const status = literalStatus(call);
  if (status !== undefined && status >= 200 && status <= 599) {
    found.statuses.add(status);
    found.statusCalls.add(call);
  }
}

/** A function or constructor of the application's own that `call` runs, walked into the same findings. */
function readFollowed(call: ts.CallExpression | ts.NewExpression, walk: Walk): Reading {
  const fn = followedFunction(call, walk.checker);
  if (fn === undefined) return 'never';
  const known = walk.followed.get(fn);
  if (known !== undefined) return known;
  // Recursion adds nothing: the function is being walked already.
  walk.followed.set(fn, 'never');
  const reading = readFunction(fn.body, walk);
  walk.followed.set(fn, reading);
  return reading;
}

/** `<ctx>.query.get('name')`, `getAll`, `has`, the query reached directly or through a `const`: false when `call` is no such read. */
function readQuery(call: ts.CallExpression, callee: ts.PropertyAccessExpression, { checker, found }: Walk): boolean {
  if (!isContextQuery(callee.expression, checker)) return false;
  const [name] = call.arguments;
  if (name && ts.isStringLiteralLike(name)) found.query.set(name.text, found.query.get(name.text) === true || callee.name.text === 'getAll');
  return true;
}

/** `new HttpError(404, …)` or `abort(404, …)`: false when `call` is neither. */
function readError(call: ts.CallExpression | ts.NewExpression, { checker, found }: Walk): boolean {
  if (!answersWithError(call.expression, checker)) return false;
  const status = literalStatus(call);
  // HttpError refuses anything else, and the answer is a 500 (runtime/errors/http-error.ts).
  if (status !== undefined && status >= 400 && status <= 599) found.errors.add(status);
  return true;
}

function literalStatus(call: ts.CallExpression | ts.NewExpression): number | undefined {
  const first = call.arguments?.[0];
  const status = first && ts.isNumericLiteral(first) ? Number(first.text) : undefined;
  return status !== undefined && Number.isInteger(status) ? status : undefined;
}
