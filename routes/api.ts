import { RateLimitKnots, ShoeCacheKnots, type Context, type Router } from 'svc';
import { AuthMiddleware } from '../weave/Middleware/AuthMiddleware.js';
import { NoteController } from '../weave/Controllers/NoteController.js';
import { UserController } from '../weave/Controllers/UserController.js';

export default (router: Router) => {
  router.group({ prefix: '/api' }, (api) => {
    api.sewGet('/users', [UserController, 'index']);
    api.sewGet('/users/{id}', [UserController, 'show']); // `id: number`: /api/users/abc → 400
    api.sewPost('/users', ['UserController', 'store']);

    api.sewGet('/notes', [NoteController, 'index']); // SQLite through db(); `npm start` runs the migration
    api.sewPost('/notes', ['NoteController', 'store']);

    /** Greet someone, or everyone */
    api.sewGet('/hello/{name?}', (name?: string) => ({ hello: name ?? 'world' }));

    /** Echo the request back: method, query, client address and JSON body */
    api.sewPost('/echo', function (this: Context) {
      return { method: this.method, query: Object.fromEntries(this.query), ip: this.ip, body: this.body.length ? this.json() : null };
    });

    /** Sort order as an enum placeholder */
    api.sewGet('/sorted/{order}', (order: 'asc' | 'desc') => ({ order, values: order === 'asc' ? [1, 2, 3] : [3, 2, 1] }));

    api.group({ middleware: [[ShoeCacheKnots, [30]]] }, (cached) => {
      /** A report that takes ~50 ms to compute, cached on disk for 30 s (see the X-Cache header) */
      cached.sewGet('/slow-report', async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { generatedAt: new Date().toISOString(), total: 42 };
      });
    });
  });

  router.group({ prefix: '/admin', namespace: 'Admin', middleware: [AuthMiddleware, [RateLimitKnots, [10, 60]]] }, (admin) => {
    admin.sewGet('/dashboard', ['DashboardController', 'dashboard']);
  });
};
