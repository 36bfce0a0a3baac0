// Knots: constructed once with their parameters, composed per route at start-up.
import assert from 'node:assert/strict';
import { get, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Context } from '../../runtime/context.ts';
import { abort } from '../../runtime/errors/http-error.ts';
import type { Next, Outgoing } from '../../runtime/http/outgoing.ts';
import type { KnotSetup, Middleware } from '../../runtime/knots/middleware.ts';
import type { MiddlewareEntry } from '../../runtime/routing/router.ts';
import { handApp } from '../support/hand-app.ts';
import { raw, startApp, type Running } from '../support/server.ts';

const order: string[] = [];

class Tag implements Middleware {
  static built = 0;
  private count = 0;
  constructor(private readonly name = 'tag') {
    Tag.built++;
  }
  async handle(_ctx: Context, next: Next): Promise<Outgoing> {
    order.push(`${this.name}:before`);
    const out = await next();
    order.push(`${this.name}:after`);
    out.headers[`x-${this.name}`] = String(++this.count);
    return out;
  }
}

class Gate implements Middleware {
  static setups: KnotSetup[] = [];
  start(setup: KnotSetup) {
    Gate.setups.push(setup);
  }

  handle(ctx: Context, next: Next) {
    if (ctx.headers.authorization !== 'Bearer yes') return { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: 'no' };
    return next();
  }
}

class Denier implements Middleware {
  handle(): Outgoing {
    return abort(403, 'denied by knot');
  }
}

class Broken implements Middleware {
  handle(): Outgoing {
    throw new Error('knot exploded');
  }
}

/** Fails after the rest of the chain has answered: a rejected promise, not a throw. */
class LateBroken implements Middleware {
  async handle(_ctx: Context, next: Next): Promise<Outgoing> {
    await next();
    throw new Error('knot exploded late');
  }
}

/** Answers with a thenable that is not a Promise, as some libraries' results are. */
class Thenable implements Middleware {
  handle(_ctx: Context, next: Next): Outgoing {
    const thenable = { then: (resolve: (out: Outgoing) => void) => void next().then((out) => resolve({ ...out, headers: { ...out.headers, 'x-thenable': 'yes' } })) };
    return thenable as unknown as Outgoing;
  }
}

class Plain implements Middleware {
  handle() {
    return 'from a knot' as unknown as Outgoing; // a value, not an Outgoing: converted like a handler's
  }
}

/** Spells header names its own way, as middleware may. */
class Retype implements Middleware {
  async handle(_ctx: Context, next: Next): Promise<Outgoing> {
    const out = await next();
    out.headers['Content-Type'] = 'text/plain; charset=utf-8';
    out.headers['X-Spelled'] = 'A';
    out.headers['x-spelled'] = 'b';
    return out;
  }
}

describe('middleware', () => {
  let server: Running;
  const group: MiddlewareEntry = [Tag, ['group']];
  before(async () => {
    server = await startApp(
      handApp(
        [
          { method: 'GET', pattern: '/a', handler: () => 'a', middleware: [group, Tag] },
          { method: 'GET', pattern: '/b', handler: () => { order.push('handler'); return 'b'; }, middleware: [group] },
          { method: 'GET', pattern: '/gate', handler: () => 'inside', middleware: ['Gate'] },
          { method: 'GET', pattern: '/gate-by-class', handler: () => 'inside', middleware: [Gate] },
          { method: 'GET', pattern: '/deny', handler: () => 'never', middleware: [Denier] },
          { method: 'GET', pattern: '/broken', handler: () => 'never', middleware: [Tag, Broken] },
          { method: 'GET', pattern: '/fails', handler: () => { throw new Error('handler exploded'); }, middleware: [[Tag, ['seen']]] },
          { method: 'GET', pattern: '/plain', handler: () => 'never', middleware: [Plain] },
          { method: 'GET', pattern: '/late', handler: () => 'answered', middleware: [[Tag, ['outer']], LateBroken] },
          { method: 'GET', pattern: '/thenable', handler: () => 'through', middleware: [Thenable] },
          { method: 'GET', pattern: '/rejects', handler: async () => abort(409, 'taken'), middleware: [[Tag, ['rejected']]] },
          { method: 'GET', pattern: '/retyped', handler: () => 'text', middleware: [Retype] },
          { method: 'GET', pattern: '/items/{id}', numbers: ['id'], handler: (id: number) => ({ id }), middleware: ['Gate', [Tag, ['item']]] },
        ],
        { classes: { Gate } },
      ),
    );
  });
  after(() => server.close());

  it('constructs each entry once, at start-up, with its parameters; a shared entry shares its instance', async () => {
    // [Tag, ['group']] (shared by /a and /b), bare Tag (shared by /a and /broken), and one each for /fails, /late, /rejects and /items/{id}
    assert.equal(Tag.built, 6);
    assert.equal((await raw(server.url, '/a')).headers['x-group'], '1');
    assert.equal((await raw(server.url, '/b')).headers['x-group'], '2');
    assert.equal((await raw(server.url, '/a')).headers['x-tag'], '2');
  });

  it('gives a bare class and its name one instance', () => {
    assert.equal(Gate.setups.length, 1); // 'Gate' (/gate, /items/{id}) and Gate (/gate-by-class)
  });

  it('starts each instance once, before the first request', () => {
    assert.equal(Gate.setups.length, 1);
    assert.equal(Gate.setups[0]!.root, server.root);
    assert.equal(Gate.setups[0]!.dev, false);
    assert.equal(Gate.setups[0]!.config.server.bodyLimit, 1024 * 1024);
  });

  it('runs outer first and lets middleware change the response', async () => {
    order.length = 0;
    const res = await raw(server.url, '/b');
    assert.equal(res.body, 'b');
    assert.deepEqual(order, ['group:before', 'handler', 'group:after']);
  });

  it('lets a middleware (named by string) short-circuit', async () => {
    const refused = await raw(server.url, '/gate');
    assert.equal(refused.status, 401);
    assert.equal(refused.headers['www-authenticate'], 'Bearer');
    assert.equal((await raw(server.url, '/gate', { headers: { authorization: 'Bearer yes' } })).body, 'inside');
  });

  it('runs the route middleware before answering 400 for a placeholder that does not fit its type', async () => {
    assert.equal((await raw(server.url, '/items/abc')).status, 401); // the gate decides first
    const bad = await raw(server.url, '/items/abc', { headers: { authorization: 'Bearer yes' } });
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).detail, 'The path parameter "id" must be a number.');
    assert.ok(bad.headers['x-item'], 'the knot around the handler saw the 400');
    assert.equal((await raw(server.url, '/items/7', { headers: { authorization: 'Bearer yes' } })).body, '{"id":7}');
  });

  it('turns HttpError from a middleware into its status', async () => {
    const res = await raw(server.url, '/deny');
    assert.equal(res.status, 403);
    assert.equal(JSON.parse(res.body).detail, 'denied by knot');
  });

  it('answers 500 when a middleware throws, which outer middleware see, and keeps serving', async () => {
    const res = await raw(server.url, '/broken');
    assert.equal(res.status, 500);
    assert.ok(res.headers['x-tag']);
    assert.doesNotMatch(res.body, /exploded/);
    assert.equal((await raw(server.url, '/a')).status, 200);
  });

  it('shows middleware the error response of a failing handler', async () => {
    const res = await raw(server.url, '/fails');
    assert.equal(res.status, 500);
    assert.equal(res.headers['x-seen'], '1');
    const log = (await server.logLines()).find((line) => line.includes('/fails'));
    assert.match(log ?? '', /\[500\] .*Error: handler exploded/);
  });

  it('answers 500 when an async middleware fails after next(), which outer middleware see', async () => {
    const res = await raw(server.url, '/late');
    assert.equal(res.status, 500);
    assert.equal(res.headers['x-outer'], '1');
    assert.doesNotMatch(res.body, /exploded/);
  });

  it('waits for a middleware result that is a thenable but no Promise', async () => {
    const res = await raw(server.url, '/thenable');
    assert.equal(res.status, 200);
    assert.equal(res.body, 'through');
    assert.equal(res.headers['x-thenable'], 'yes');
  });

  it("shows middleware the status of a handler's rejected promise", async () => {
    const res = await raw(server.url, '/rejects');
    assert.equal(res.status, 409);
    assert.equal(JSON.parse(res.body).detail, 'taken');
    assert.equal(res.headers['x-rejected'], '1');
  });

  it('converts a middleware result that is a plain value', async () => {
    const res = await raw(server.url, '/plain');
    assert.equal(res.body, 'from a knot');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  });

  it('sends one field per header name, however middleware spell it: the last value wins', async () => {
    const { headers, rawHeaders } = await new Promise<IncomingMessage>((resolve, reject) => get(`${server.url}/retyped`, (res) => resolve(res.resume())).on('error', reject));
    const names = rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    assert.equal(names.filter((name) => name === 'content-type').length, 1);
    assert.equal(headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(names.filter((name) => name === 'x-spelled').length, 1);
    assert.equal(headers['x-spelled'], 'b');
  });
});
