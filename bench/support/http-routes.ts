// The servers of the HTTP benches by name, the three routes they ask each for, and the
// check that every server answers them alike before anything is measured.
import type { Peer } from '../servers/compile.ts';
import { MISSING_PATH, PARAMS_PATH, payload, STATIC_PATH } from '../servers/payload.ts';

export type Contender = 'svc' | 'baseline' | Peer;

export const SERVER_NAMES: Record<Contender, string> = {
  svc: 'svc serve',
  baseline: 'svc serve (baseline)',
  bare: 'node:http (bare)',
  fastify: 'Fastify',
  hono: 'Hono (node-server)',
  express: 'Express',
};

export interface BenchRoute {
  id: 'static' | 'params' | '404';
  name: string;
  path: string;
  status: number;
  /** The exact JSON expected; undefined where servers may word it their own way (the 404). */
  body: unknown;
}

export const HTTP_ROUTES: readonly BenchRoute[] = [
  { id: 'static', name: 'static JSON', path: STATIC_PATH, status: 200, body: payload },
  { id: 'params', name: 'two placeholders', path: PARAMS_PATH, status: 200, body: { id: '42', postId: '7' } },
  { id: '404', name: '404', path: MISSING_PATH, status: 404, body: undefined },
];

/** Every server must answer the same thing, or the numbers compare different work. */
export async function checkAnswers(server: string, url: string, routes: readonly BenchRoute[]): Promise<void> {
  for (const route of routes) {
    const res = await fetch(url + route.path);
    const text = await res.text();
    if (res.status !== route.status) throw new Error(`${server} answered ${route.path} with ${res.status}: ${text}`);
    if (route.body !== undefined && text !== JSON.stringify(route.body)) throw new Error(`${server} answered ${route.path} with ${text}`);
  }
}
