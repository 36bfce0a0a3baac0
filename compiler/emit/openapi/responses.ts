// An operation's responses: one per answer the handler's return value can become
// (ReturnCases, read in compiler/analyse/schema/return-cases.ts), under the statuses it
// sets (HandlerCalls); the errors the handler and its middleware throw; and the shared
// error responses svc answers with on its own, kept once under components/responses.
import { STATUS_CODES } from 'node:http';
import type { HandlerCalls, ReturnCases } from '../../ir.ts';
import { takesNoBody } from '../../../runtime/http/outgoing.ts';
import type { AppRoute } from './documented-route.ts';

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

/** What `RateLimitKnots` sets on every answer that passes it (runtime/knots/rate-limit.ts). */
const rateLimitHeaders = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
};

/** By name under `#/components/responses/`; the document holds those its operations use. */
export const sharedResponses: Record<string, unknown> = {
  BadParameter: { description: 'A path parameter does not fit its type.', content: problem },
  Thrown: { description: 'The handler never returns: it throws, and the answer has the status of its `HttpError` (`abort()`), or 500.', content: problem },
  Problem: { description: 'An error the handler or its middleware answers with (`HttpError`, `abort()`).', content: problem },
  RateLimited: {
    description: 'Too many requests from this client address: the route is rate limited (`RateLimitKnots`).',
    headers: { 'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } }, ...rateLimitHeaders },
    content: problem,
  },
};

export const sharedRef = (name: 'BadParameter' | 'Thrown' | 'Problem' | 'RateLimited') => ({ $ref: `#/components/responses/${name}` });

type Response = { description: string; content?: unknown; headers?: unknown } | ReturnType<typeof sharedRef>;

/**
 * What the route answers with: its handler's return value, under the statuses the
 * handler sets; the statuses it and its middleware throw; a rate limit's 429.
 */
export function routeResponses({ handler, middleware }: AppRoute): Record<string, Response> {
  const thrown = [...handler.calls.errors, ...middleware.flatMap((m) => m.errors)];
  const responses = { ...Object.fromEntries(thrown.map((status) => [status, sharedRef('Problem')])), ...returnResponses(handler.returns, handler.calls) };
  if (!middleware.some((m) => m.rateLimit)) return responses;
  // Shared responses are references, which OpenAPI does not let an operation add headers to.
  const withHeaders = Object.entries(responses).map(([status, response]) => [status, '$ref' in response ? response : { ...response, headers: rateLimitHeaders }]);
  return { ...Object.fromEntries(withHeaders), '429': sharedRef('RateLimited') };
}

/**
 * `statuses`: what the handler sets with `ctx.status()`, which its data is answered with
 * instead of 200, and nothing too when one is set on every path (`status(202); return;`
 * is a 202 without a body, as the server answers it: runtime/http/convert.ts).
 */
function returnResponses(returns: ReturnCases, { statuses, statusAlways }: HandlerCalls): Record<string, Response> {
  const content = {
    ...(returns.html && { 'text/html': { schema: returns.html } }),
    ...(returns.json && { 'application/json': { schema: returns.json } }),
    ...(returns.bytes && { 'application/octet-stream': {} }),
    // A Blob is sent with its own type, which its TypeScript type does not tell.
    ...(returns.blob && { '*/*': {} }),
  };
  const success = statuses.length > 0 ? statuses : [200];
  const never = Object.keys(returns).length === 0;
  const data = Object.keys(content).length > 0;
  return {
    ...(data && Object.fromEntries(success.map((status) => [status, dataResponse(status, content)]))),
    ...(returns.empty && !statusAlways && { '204': { description: 'No content.' } }),
    ...(returns.empty && statusAlways && !data && Object.fromEntries(statuses.map((status) => [status, { description: STATUS_CODES[status] ?? `Status ${status}` }]))),
    // A Response sets its own status, so no status code can be promised for it.
    ...(returns.opaque && { default: { description: 'Any status and media type: a Response the handler builds, or a value its type does not tell.', content: { '*/*': {} } } }),
    ...(never && { default: sharedRef('Thrown') }),
  };
}

/** The server drops the data of a status that takes no body (a 204 set with `ctx.status()`), so no content is promised. */
function dataResponse(status: number, content: Record<string, unknown>): Response {
  const description = STATUS_CODES[status] ?? `Status ${status}`;
  return takesNoBody(status) ? { description } : { description, content };
}
