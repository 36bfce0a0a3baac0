// The 12 routes and the request cases of the Hono and find-my-way router benchmarks.
// `/static/*` is `/static/{path}` here: svc has no wildcard, and the case requests one segment.
import type { RouteSet } from './route-set.ts';

export const standard: RouteSet = {
  name: 'standard 12 routes',
  routes: [
    'GET /user',
    'GET /user/comments',
    'GET /user/avatar',
    'GET /user/lookup/username/{username}',
    'GET /user/lookup/email/{address}',
    'GET /event/{id}',
    'GET /event/{id}/comments',
    'POST /event/{id}/comment',
    'GET /map/{location}/events',
    'GET /status',
    'GET /very/deeply/nested/route/hello/there',
    'GET /static/{path}',
  ],
  peerPatterns: { '/static/{path}': '/static/*' },
  cases: [
    { name: 'short static', method: 'GET', path: '/user' },
    { name: 'static with same radix', method: 'GET', path: '/user/comments' },
    { name: 'dynamic route', method: 'GET', path: '/user/lookup/username/hey' },
    { name: 'mixed static dynamic', method: 'GET', path: '/event/abcd1234/comments' },
    { name: 'post', method: 'POST', path: '/event/abcd1234/comment' },
    { name: 'long static', method: 'GET', path: '/very/deeply/nested/route/hello/there' },
    { name: 'wildcard', method: 'GET', path: '/static/index.html' },
  ],
};
