// The socket `svc tread` binds for its server processes (compiler/cli/shared-socket.ts):
// a port in use is refused here, not found out by a server process that listens on
// another port instead.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { bindSocket } from '../../compiler/cli/shared-socket.ts';

test('a port in use is EADDRINUSE, though libuv holds the error back until listen()', async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.after(() => taken.close());
  const { port } = taken.address() as AddressInfo;
  assert.deepEqual(await bindSocket('127.0.0.1', port), { failed: `bind EADDRINUSE 127.0.0.1:${port}`, code: 'EADDRINUSE' });
});

test('a host name is resolved as server.listen() resolves it; one that does not resolve is said so', async () => {
  const bound = await bindSocket('localhost', 0);
  assert.ok('handle' in bound);
  bound.handle.close();
  const missing = await bindSocket('no-such-host.invalid', 0);
  assert.ok('failed' in missing && missing.code === 'ENOTFOUND', JSON.stringify(missing));
});
