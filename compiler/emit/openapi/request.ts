// What an operation says of the request besides its path: the bodies and the query
// parameters its handler reads (HandlerCalls, read in compiler/analyse/calls/).
import type { QueryParam, RequestBodies } from '../../ir.ts';

/** A form arrives in either encoding (runtime/http/form-body.ts); its fields are not known from the call. */
const FORM = { schema: { type: 'object' } };

export function requestBody(bodies: RequestBodies): unknown {
  const content = {
    ...(bodies.json && { 'application/json': { schema: bodies.json } }),
    ...(bodies.form && { 'application/x-www-form-urlencoded': FORM, 'multipart/form-data': FORM }),
    ...(bodies.text && { 'text/plain': { schema: { type: 'string' } } }),
  };
  if (Object.keys(content).length === 0) return undefined;
  return bodies.optional ? { content } : { required: true, content };
}

/** Optional, as `get()` gives `null` for a name the request leaves out; `getAll` reads `?tag=a&tag=b`. */
export const queryParameters = (query: QueryParam[]): unknown[] =>
  query.map(({ name, repeated }) => ({ name, in: 'query', schema: repeated ? { type: 'array', items: { type: 'string' } } : { type: 'string' } }));
