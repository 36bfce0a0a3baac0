// svc.json `endpoints.guarded` (SPEC §6): the built-in endpoints answer only requests
// carrying `Authorization: Bearer <SVC_GUARD_TOKEN>`. Both tokens are hashed first so
// that `timingSafeEqual` compares equal-length digests: neither the token's content
// nor its length leaks through the response time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from '../context.ts';
import { HttpError } from '../errors/http-error.ts';

const GUARD_TOKEN_VARIABLE = 'SVC_GUARD_TOKEN';

/** Thrown at start-up: a guarded server without a token it can match would lock everyone out, or worse, nobody. */
export class GuardTokenError extends Error {
  constructor(problem: string) {
    super(
      `svc.json sets "endpoints.guarded": true but ${problem}. ` +
        `Set ${GUARD_TOKEN_VARIABLE} to the token clients send as "Authorization: Bearer <token>", or turn "guarded" off.`,
    );
    this.name = 'GuardTokenError';
  }
}

/**
 * What a request can present: a header value carries visible ASCII (node reads other bytes
 * as Latin-1), and the token is read without the spaces around it.
 */
const PRESENTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export type Guard = (ctx: Context) => void;

/** The token a guarded server compares against; `null` when the endpoints are open. Throws when it is missing. */
export function guardToken(guarded: boolean, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!guarded) return null;
  const token = env[GUARD_TOKEN_VARIABLE];
  if (!token) throw new GuardTokenError(`the environment variable ${GUARD_TOKEN_VARIABLE} is ${token === undefined ? 'not set' : 'empty'}`);
  if (!PRESENTABLE.test(token)) {
    throw new GuardTokenError(`${GUARD_TOKEN_VARIABLE} starts or ends with whitespace, or holds a character other than visible ASCII, so no request could present it`);
  }
  return token;
}

/** Throws a 401 for a request without the right token; `null` when the endpoints are open. */
export function bearerGuard(guarded: boolean, env: NodeJS.ProcessEnv = process.env): Guard | null {
  const token = guardToken(guarded, env);
  if (token === null) return null;
  const expected = digest(token);
  return (ctx) => {
    const presented = bearerToken(ctx.headers.authorization);
    if (presented === null || !timingSafeEqual(digest(presented), expected)) {
      throw new HttpError(401, 'This endpoint needs "Authorization: Bearer <token>" with the server\'s token.', { 'www-authenticate': 'Bearer' });
    }
  };
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The credentials of `Bearer <token>` (the scheme is case-insensitive, RFC 9110 §11.1). */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return null;
  const token = header.slice(space + 1).trim();
  return token === '' ? null : token;
}
