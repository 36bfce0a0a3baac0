// Error responses (SPEC §4): an HTML page when the client accepts text/html, otherwise
// RFC 9457 `application/problem+json`.
import { STATUS_CODES } from 'node:http';
import type { HeaderValue, Outgoing } from '../http/outgoing.ts';
import type { ErrorPages } from './pages.ts';

export interface Problem {
  status: number;
  /** Safe to show to the client. */
  detail: string;
  headers?: Readonly<Record<string, HeaderValue>>;
  /** Only under `svc tread`: the failing error's stack. */
  stack?: string;
}

export const statusTitle = (status: number): string => STATUS_CODES[status] ?? 'Error';

export function problemOutgoing(problem: Problem, accept: string | undefined, requestId: string, pages: ErrorPages): Outgoing {
  const { status, detail, stack } = problem;
  const title = statusTitle(status);
  const headers: Record<string, HeaderValue> = { ...problem.headers };
  if (accept !== undefined && accept.includes('text/html')) {
    headers['content-type'] = 'text/html; charset=utf-8';
    return { status, headers, body: pages.render({ status, title, detail, requestId, stack }) };
  }
  headers['content-type'] = 'application/problem+json';
  const body = { type: 'about:blank', title, status, detail, requestId, ...(stack === undefined ? {} : { stack: stack.split('\n') }) };
  return { status, headers, body: JSON.stringify(body) };
}
