// Methods in the generated code: the switch over them, the bit flags the segment walk
// collects for a 405, and the `Allow` lists.
import { allowList } from '../../../runtime/routing/allow.ts';
import { HTTP_METHODS, type HttpMethod } from '../../ir.ts';
import type { CodeWriter } from './code-writer.ts';
import type { Shape } from './shapes.ts';

/** HEAD is answered by the GET route (SPEC §4). */
const caseLabels = (method: HttpMethod): string[] =>
  method === 'GET' ? ["case 'GET':", "case 'HEAD':"] : [`case '${method}':`];

/**
 * `switch (method)` with a case for each method of `shapes`, in method order, answered by
 * the first shape of that method (a later one is a duplicate the check phase rejects).
 * Returns the methods.
 */
export function writeMethodSwitch(w: CodeWriter, shapes: Shape[], answer: (shape: Shape, labels: string[]) => void): HttpMethod[] {
  const methods = inMethodOrder(shapes.map((shape) => shape.route.method));
  w.block('switch (method) {', () => {
    for (const method of methods) answer(shapes.find((shape) => shape.route.method === method)!, caseLabels(method));
  });
  return methods;
}

export const methodBit = (method: HttpMethod): number => 1 << HTTP_METHODS.indexOf(method);

/** `GET | POST`: the generated module names each method's bit after the method. */
export const bitsExpression = (methods: HttpMethod[]): string => (methods.length ? methods.join(' | ') : '0');

/** The body of `allowList` in the generated module: the same order as `allowList`, one line per method. */
export function allowListSteps(methods: HttpMethod[]): string[] {
  return allowList(methods)
    .filter((name) => name !== 'HEAD')
    .map((name) => {
      if (name === 'OPTIONS') return "allow.push('OPTIONS');";
      const pushed = name === 'GET' ? "'GET', 'HEAD'" : `'${name}'`;
      return `if (methods & ${name}) allow.push(${pushed});`;
    });
}

export function inMethodOrder(methods: Iterable<HttpMethod>): HttpMethod[] {
  const present = new Set(methods);
  return HTTP_METHODS.filter((m) => present.has(m));
}
