// Base class for controllers. The framework creates a controller per request (no
// constructor arguments) and sets `ctx` before calling the route's method, so
// `this.ctx` is the request context, typed.
import type { Context } from './context.ts';

export class Controller {
  ctx!: Context;
}
