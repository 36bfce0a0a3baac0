// An operation's responses: one per answer the handler's return value can become
// (ReturnCases, read in compiler/analyse/schema/return-cases.ts), and the shared error
// responses svc answers with on its own, kept once under components/responses.
import type { ReturnCases } from '../../ir.ts';

/** RFC 9457, as runtime/errors writes it. */
const problem = {
  'application/problem+json': {
    schema: {
      type: 'object',
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
      },
      required: ['title', 'status'],
    },
  },
};

/** By name under `#/components/responses/`; the document holds those its operations use. */
export const sharedResponses: Record<string, unknown> = {
  BadParameter: { description: 'A path parameter does not fit its type.', content: problem },
  Thrown: { description: 'The handler never returns: it throws, and the answer has the status of its `HttpError` (`abort()`), or 500.', content: problem },
};

export const sharedRef = (name: 'BadParameter' | 'Thrown') => ({ $ref: `#/components/responses/${name}` });

export function returnResponses(returns: ReturnCases): Record<string, unknown> {
  const content = {
    ...(returns.html && { 'text/html': { schema: returns.html } }),
    ...(returns.json && { 'application/json': { schema: returns.json } }),
    ...(returns.bytes && { 'application/octet-stream': {} }),
    // A Blob is sent with its own type, which its TypeScript type does not tell.
    ...(returns.blob && { '*/*': {} }),
  };
  const never = Object.keys(returns).length === 0;
  return {
    ...(Object.keys(content).length > 0 && { '200': { description: 'OK', content } }),
    ...(returns.empty && { '204': { description: 'No content.' } }),
    // A Response sets its own status, so no status code can be promised for it.
    ...(returns.opaque && { default: { description: 'Any status and media type: a Response the handler builds, or a value its type does not tell.', content: { '*/*': {} } } }),
    ...(never && { default: sharedRef('Thrown') }),
  };
}
