// The close after a refused request body (413, 501, 417: the pipeline's `fail()` asks
// for it whenever its answer closes a connection whose request is still arriving), done
// as nginx's lingering close. The
// answer goes out while the client is still sending the body, and the connection then
// closes. A socket closed with bytes unread, or that bytes reach after it closed, is
// reset by the kernel, and a reset makes the client's kernel drop what the client has
// received but not yet read: a client that writes its whole body before it reads (as
// node:http does) gets EPIPE or ECONNRESET instead of the 413. So the server half-closes
// after the answer and reads on, throwing the bytes away, until the client closes or a
// bound is reached.
import type { Socket } from 'node:net';

/** The socket's libuv handle, which node's HTTP server starts and stops itself. */
type Handle = { reading: boolean; readStart(): number };

/**
 * The client only has to read an answer that has already reached it; 2 s covers a busy
 * client and a slow link many times over, and bounds how long a refused client, or one
 * that trickles bytes to stay connected, holds the socket.
 */
export const LINGER_MS = 2000;

/**
 * The answer reaches the client about as fast as its bytes reach the server, so a client
 * sending at full speed has it long before 16 MiB more arrive (0.13 s at 1 Gbit/s);
 * reading more would only spend bandwidth on a body that is refused anyway.
 */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Makes the close that follows this connection's `Connection: close` answer linger. Node
 * ends such a connection with `socket.destroySoon()` once the response is written (its
 * `_http_server.js`, resOnFinish), which is replaced on this socket alone.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => linger(socket);
}

function linger(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  // Node's HTTP parser reads the socket itself, and would take what follows the body for
  // the next request. Its 'data' listener goes; a new one makes node hand the bytes to
  // JavaScript instead of the parser (its listener wrapper unconsumes the socket).
  socket.removeAllListeners('data');
  let left = LINGER_BYTES;
  const close = (): void => void socket.destroy();
  const timer = setTimeout(close, LINGER_MS).unref();
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) close();
  });
  socket.once('end', close).once('close', () => clearTimeout(timer));
  socket.resume();
  // The request may have paused reading (its body had no reader), and the stream still
  // waits for the parser's bytes, so resume() alone starts nothing: start the handle, as
  // node's server does for a socket its parser reads (onSocketResume).
  const handle = (socket as Socket & { _handle?: Handle | null })._handle;
  if (handle && !handle.reading) {
    handle.reading = true;
    handle.readStart();
  }
}
