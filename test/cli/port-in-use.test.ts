// An address the server cannot have is said in one line, not a stack trace.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { svc } from '../support/cli.ts';
import { HELLO_APP, makeProject, removeProject } from '../support/project.ts';

let root: string;
let taken: Server;
let port: number;

before(async () => {
  root = await makeProject(HELLO_APP);
  assert.equal(svc(root, ['build']).status, 0);
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as AddressInfo).port;
});

after(async () => {
  await new Promise((resolve) => taken.close(resolve));
  await removeProject(root);
});

for (const command of ['serve', 'tread']) {
  test(`svc ${command} on a port in use exits 1 saying so`, () => {
    const result = svc(root, [command, '--host', '127.0.0.1', '--port', String(port)]);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stderr, new RegExp(`svc: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use by another process; .*\\(EADDRINUSE\\)`));
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
  });
}

test('svc serve on a host name that does not resolve exits 1 saying so', () => {
  const result = svc(root, ['serve', '--host', 'no-such-host.invalid', '--port', '0']);
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /svc: cannot listen on no-such-host\.invalid:0: the host name does not resolve/);
  assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
});
