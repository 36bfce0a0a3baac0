// Node hands a CONNECT request to a 'connect' listener along with its socket, and drops
// the connection when there is none. svc is no proxy, but a CONNECT is still a request:
// it goes through the pipeline like any other (IP rules, then an answer and a log line:
// 400 for the usual `host:port` target, which is no path), and the connection closes
// after the answer, as node has already stopped parsing it.
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** `connection` is typed as the 'connect' event types it; node passes the connection's socket. */
export function answerConnect(handle: RequestListener, req: IncomingMessage, connection: Duplex): void {
  const socket = connection as Socket;
  socket.on('error', () => socket.destroy());
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  handle(req, res);
}
