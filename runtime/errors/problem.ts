// Error responses (SPEC §4): an HTML page when the client accepts text/html, otherwise
// RFC 9457 `application/problem+json`.
import { STATUS_CODES } from 'node:http';
import { accepts } from '../http/accepts.ts';
import type { HeaderValue, Outgoing } from '../http/outgoing.ts';
import type { ErrorPages } from './pages.ts';

export interface Problem {
  status: number;
  /** Safe to show to the client. */
  detail: string;
  headers?: Readonly<Record<string, HeaderValue>> | undefined;
  /** Only under `svc tread`: the failing error's stack. */
  stack?: string | undefined;
}

/** RFC 9110's names where node's table still has the older ones (413 was "Payload Too Large"). */
const TITLES: Readonly<Record<number, string>> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };

export const statusTitle = (status: number): string => TITLES[status] ?? STATUS_CODES[status] ?? 'Error';

/**
 * The method an error's text names: GET for a HEAD request, whose `Content-Length` must
 * be that of the GET answer (RFC 9110 §8.6), as the GET route is what answers it.
 */
export const asAnsweredBy = (method: string): string => (method === 'HEAD' ? 'GET' : method);

export const PROBLEM_JSON = 'application/problem+json';
const HTML = 'text/html; charset=utf-8';

/**
 * The problem object's JSON up to its `detail` value, by status. The body is built as
 * text around it: every 404 would otherwise build and stringify the same object again,
 * and the output is byte for byte what `JSON.stringify` gives for
 * `{ type, title, status, detail, requestId, stack? }`.
 */
const bodyStarts = new Map<number, string>();

function bodyStart(status: number): string {
  let start = bodyStarts.get(status);
  if (start === undefined) {
    start = `{"type":"about:blank","title":${JSON.stringify(statusTitle(status))},"status":${status},"detail":`;
    bodyStarts.set(status, start);
  }
  return start;
}

/** `requestId` comes from runtime/server/request-id.ts: hex digits and dashes, written as they are. */
export function problemOutgoing(problem: Problem, accept: string | undefined, requestId: string, pages: ErrorPages): Outgoing {
  const { status, detail, stack } = problem;
  const html = accepts(accept, 'text/html');
  // A fresh object every time: middleware may add headers to an error response. `Vary`:
  // a cache must not hand the HTML page to an API client (RFC 9110 §12.5.5); a 404 may be cached.
  const type = html ? HTML : PROBLEM_JSON;
  const headers: Record<string, HeaderValue> =
    problem.headers === undefined ? { 'content-type': type, vary: 'accept' } : { ...problem.headers, 'content-type': type, vary: 'accept' };
  if (html) return { status, headers, body: pages.render({ status, title: statusTitle(status), detail, requestId, stack }) };
  return { status, headers, body: problemJson(status, detail, requestId, stack) };
}

/** The `application/problem+json` body alone. */
export function problemJson(status: number, detail: string, requestId: string, stack?: string): string {
  const tail = stack === undefined ? '}' : `,"stack":${JSON.stringify(stack.split('\n'))}}`;
  return `${bodyStart(status)}${jsonString(detail)},"requestId":"${requestId}"${tail}`;
}

/** `JSON.stringify(text)`, several times faster for the usual text that needs no escape. */
function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Control characters, `"`, `\` and surrogates (a lone one is escaped) are left to JSON.stringify.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}
