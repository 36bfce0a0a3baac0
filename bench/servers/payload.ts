// The JSON every server answers the static route with, and the routes the HTTP bench
// asks for. The svc bench project returns the same literal (bench/gen/).
export const payload = {
  message: 'Hello, World!',
  service: 'bench',
  tags: ['fast', 'typed', 'compiled'],
  version: 1,
} as const;

export const STATIC_PATH = '/hello';
/** Two placeholders; every server answers `{ id, postId }`. */
export const PARAMS_PATTERN = '/users/{id}/posts/{postId}';
export const PARAMS_PATH = '/users/42/posts/7';
export const MISSING_PATH = '/no/such/route';
