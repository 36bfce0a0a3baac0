// The public API, imported by applications as 'svc'.
export * from './database/index.ts';
export type { Router, Handler, GroupOptions, MiddlewareEntry } from './routing/router.ts';
export type { Match, MatchFn } from './routing/match.ts';
export type { Context, RouteInfo } from './context.ts';
export type { Middleware, MiddlewareClass } from './knots/middleware.ts';
export type { KnotSetup } from './knots/middleware.ts';
export { RateLimitKnots, type RateLimitOptions } from './knots/rate-limit.ts';
export { ShoeCacheKnots, type ShoeCacheOptions } from './knots/shoe-cache.ts';
export type { Outgoing, Next, HeaderValue } from './http/outgoing.ts';
export { Controller } from './controller.ts';
export { HttpError, abort } from './errors/http-error.ts';
export { redirect, type RedirectStatus } from './http/redirect.ts';
export { logError } from './shoebox/log.ts';
export { shoeAsset } from './shoebox/assets.ts';
