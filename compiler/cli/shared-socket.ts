// The listening socket of `svc tread`. tread binds it itself and hands it to each server
// process it starts, so a replacement accepts on it before the process it replaces lets
// go: no connection is refused in between, and one that arrives while no process
// accepts (after a crash) waits in the socket's backlog. Node's cluster shares a socket
// between its workers the same way (lib/internal/cluster/shared_handle.js): the socket is
// bound here and only listened on, and accepted from, in the server processes.
// `net._createServerHandle` is that module's, not in Node's documented API; every release
// svc supports has it, and test/cli/tread-server-process.test.ts pins the behaviour.
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { getSystemErrorName } from 'node:util';

/** A bound TCP socket, as child_process sends it to a server process. */
export interface SocketHandle {
  close(): void;
  getsockname(out: object): number;
}

type CreateServerHandle = (address: string, port: number, family: 4 | 6) => SocketHandle | number;

export type Bound = { handle: SocketHandle } | { failed: string; code: string };

/** Binds `host:port`, a host name resolving as `server.listen()` resolves it. */
export async function bindSocket(host: string, port: number): Promise<Bound> {
  let address: { address: string; family: number };
  try {
    address = await lookup(host);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { failed: message, code: code ?? 'ENOTFOUND' };
  }
  const create = (net as unknown as { _createServerHandle: CreateServerHandle })._createServerHandle;
  const handle = create(address.address, port, address.family === 6 ? 6 : 4);
  if (typeof handle === 'number') return refused(getSystemErrorName(handle), address.address, port);
  // libuv holds a bind's EADDRINUSE back until listen(), which the server process calls on
  // its own copy of the socket, which would then listen on a port of its own; getsockname() tells.
  const unbound = handle.getsockname({});
  if (unbound === 0) return { handle };
  handle.close();
  return refused(getSystemErrorName(unbound), address.address, port);
}

const refused = (code: string, address: string, port: number): Bound => ({ failed: `bind ${code} ${address}:${port}`, code });
