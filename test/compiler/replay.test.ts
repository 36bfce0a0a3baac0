// The compiler numbers registrations statically; the runtime binds them by replaying the
// route files against RecordingRouter. Both must see the same methods and patterns in
// the same order, or start-up would bind handlers to the wrong routes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { it } from 'node:test';
import { build } from '../../compiler/build.ts';
import { RecordingRouter, type RouteFile } from '../../runtime/routing/router.ts';
import { fixturesDir } from './fixture.ts';

it('the runtime replay of a valid tree registers what the compiler numbered', async () => {
  const root = join(fixturesDir, 'valid-app');
  const { table } = await build(root, { write: false });
  const router = new RecordingRouter();
  for (const file of table!.files) {
    const routeFile = (await import(pathToFileURL(join(root, file)).href)) as { default: RouteFile };
    routeFile.default(router);
  }
  assert.deepEqual(
    router.registrations.map((r) => `${r.method} ${r.pattern}`),
    table!.routes.filter((r) => r.handler.kind !== 'builtin').map((r) => `${r.method} ${r.pattern}`),
  );
});
