// `JSON.stringify` calls a value's `toJSON` once and writes what it returns as it is,
// without calling that result's own `toJSON`, and leaves out a property (writes `null` for
// an element) whose `toJSON` returns `undefined`: what the built server sends for such
// values must validate against the schema the document gives.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startProject } from '../support/server.ts';
import { assertAnswersMatchSchemas, assertValidOpenApi } from './validate.ts';

const app = await startProject({
  'routes/api.ts': `import type { Router } from 'svc';
class Itself { a = 1; toJSON() { return this; } }
class Money { constructor(public cents: number) {} toJSON() { return (this.cents / 100).toFixed(2); } }
class Wallet { toJSON() { return new Money(150); } }
class Ping { toJSON(): Pong { return new Pong(); } }
class Pong { b = 2; toJSON(): Ping { return new Ping(); } }
class Maybe { c = 3; toJSON(): Maybe | null { return this; } }
class Stamp { toJSON() { return new Date(0); } }
class Secret { toJSON(): string | undefined { return undefined; } }
export default (router: Router) => {
  router.get('/itself', () => new Itself());
  router.get('/wallet', () => ({ wallet: new Wallet(), money: new Money(1) }));
  router.get('/ping', () => new Ping());
  router.get('/maybe', () => [new Maybe()]);
  router.get('/literal', () => ({ a: { x: 1, toJSON() { return this; } } }));
  router.get('/stamp', () => ({ stamp: new Stamp() }));
  router.get('/secret', () => ({ secret: new Secret(), secrets: [new Secret()], n: 1 }));
};
`,
});
after(() => app.close());

test('what toJSON returns is documented as JSON writes it, without its own toJSON: no $ref to itself', async () => {
  const document = await assertValidOpenApi(await readFile(join(app.root, '.svc', 'openapi.json'), 'utf8'));
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  assert.deepEqual(schemas.Itself, { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
  await assertAnswersMatchSchemas(document, app.url, ['/itself', '/wallet', '/ping', '/maybe', '/literal', '/stamp', '/secret']);
});
