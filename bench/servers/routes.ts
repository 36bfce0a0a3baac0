// What a peer server registers: the two HTTP-bench routes, or (`--routes <file>`) the
// route list of a generated project, so that start-up compares the same table.
import { readFileSync } from 'node:fs';
import { PARAMS_PATTERN, payload, STATIC_PATH } from './payload.ts';

export interface PeerRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** svc syntax: `/users/{id}`, `/search/{term?}`. */
  pattern: string;
}

export function peerRoutes(argv = process.argv.slice(2)): PeerRoute[] {
  const at = argv.indexOf('--routes');
  if (at < 0) return [{ method: 'GET', pattern: STATIC_PATH }, { method: 'GET', pattern: PARAMS_PATTERN }];
  return JSON.parse(readFileSync(argv[at + 1]!, 'utf8')) as PeerRoute[];
}

export function listenPort(argv = process.argv.slice(2)): number {
  const at = argv.indexOf('--port');
  return at < 0 ? 0 : Number(argv[at + 1]);
}

/** `/users/{id}` → `/users/:id`, `/search/{term?}` → `/search/:term?` (find-my-way and Hono). */
export const colonPattern = (pattern: string): string => pattern.replace(/\{([^}?]+)(\?)?\}/g, ':$1$2');

/** A route with placeholders answers them back in pattern order; a static one answers the shared payload. */
export function answerFor(pattern: string): (params: Record<string, string | undefined>) => unknown {
  const names = [...pattern.matchAll(/\{([^}?]+)\??\}/g)].map((m) => m[1]!);
  if (names.length === 0) return () => payload;
  return (params) => {
    const out: Record<string, string | undefined> = {};
    for (const name of names) out[name] = params[name];
    return out;
  };
}

export const announce = (port: number): void => console.log(`listening http://127.0.0.1:${port}`);
