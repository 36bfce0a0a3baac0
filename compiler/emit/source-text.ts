// How values from the route table are spelled inside the generated source.
import type { Route } from '../ir.ts';

/** A single-quoted string literal. */
export function quote(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return `'${escaped}'`;
}

/** Text for a `//` comment: a pattern could hold a line break, which would end the comment. */
export const commentText = (text: string): string => text.replace(/[\u0000-\u001f\u2028\u2029]/g, '?').replaceAll('*/', '*\\/');

/** `GET /users/{id?}`: how a route is named in comments of the generated code. */
export const describe = (route: Route): string => commentText(`${route.method} ${route.pattern}`);

/** `users-by id` → `UsersById`: the ASCII letters and digits of `text` as one identifier part. */
export const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
