// Pattern normalisation shared by the compiler (static analysis) and the runtime
// (replaying route files), so both number and name routes identically.
// One slash at either end is optional; any more stand for empty segments, which SVC005 reports.
const strip = (s: string): string => s.replace(/^\/|\/$/g, '');

/** One leading slash, no trailing slash (except `/`); inner empty segments are left for SVC005 to report. */
export function normalisePattern(pattern: string): string {
  const inner = strip(pattern);
  return inner === '' ? '/' : `/${inner}`;
}

export function joinPattern(prefix: string, pattern: string): string {
  return normalisePattern([strip(prefix), strip(pattern)].filter(Boolean).join('/'));
}

/**
 * Folders joined with `/`. A backslash separates them too, as in Laravel's
 * `namespace: 'Admin\\Reports'`: the build then imports a path esbuild resolves.
 */
export function joinNamespace(outer: string, inner: string): string {
  return [strip(outer), strip(inner.replaceAll('\\', '/'))].filter(Boolean).join('/');
}
