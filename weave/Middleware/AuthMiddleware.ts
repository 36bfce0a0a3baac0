// The demo's admin guard: `Authorization: Bearer <token>` must carry the token in the
// environment variable SVC_ADMIN_TOKEN. Tokens are compared as sha256 digests in constant
// time, so neither their content nor their length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, logError, type Context, type Middleware, type Next, type Outgoing } from 'svc';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

export class AuthMiddleware implements Middleware {
  /** Digest of the expected token; null when none is configured: then nobody gets in. */
  private expected: Buffer | null = null;

  start(): void {
    const token = process.env['SVC_ADMIN_TOKEN'];
    if (token) {
      this.expected = sha256(token);
      return;
    }
    const message = 'SVC_ADMIN_TOKEN is not set: AuthMiddleware denies every request (401) until it is';
    console.error(`svc: ${message}`);
    logError('auth', message);
  }

  handle(ctx: Context, next: Next): Promise<Outgoing> {
    const header = ctx.headers.authorization ?? '';
    const given = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
    if (this.expected === null || given === '' || !timingSafeEqual(sha256(given), this.expected)) {
      throw new HttpError(401, 'A valid bearer token is required.', { 'www-authenticate': 'Bearer' });
    }
    return next();
  }
}
