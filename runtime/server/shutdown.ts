// Graceful stop for `svc serve` (SIGTERM from an orchestrator, SIGINT from a terminal):
// stop accepting, let the requests in flight finish within a grace period, close
// keep-alive connections as soon as they fall idle, and only then flush and exit.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export type Drained = 'drained' | 'forced';

/** How often idle keep-alive connections are looked for while draining. */
const SWEEP_EVERY_MS = 50;

/**
 * The server's open connections, kept on the server itself: `svc tread` drains with the
 * copy of this module of the build it serves last, not of the one that started tracking.
 */
const CONNECTIONS = Symbol.for('svc.connections');
type Tracked = Server & { [CONNECTIONS]?: Set<Socket> };

/** Keeps count of `server`'s connections, for `drain` to close those that never send a request. */
export function trackConnections(server: Server): void {
  const tracked = server as Tracked;
  if (tracked[CONNECTIONS]) return;
  const open = (tracked[CONNECTIONS] = new Set());
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/** The response a connection is answering now (node's own field, as old as `node:http`). */
const answering = (socket: Socket): ServerResponse | undefined => (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;

/**
 * Closes `server` and resolves once its last connection is gone: `'drained'` when every
 * request in flight finished, `'forced'` when some were still running after `graceMs`
 * and their connections were cut.
 */
export function drain(server: Server, graceMs: number): Promise<Drained> {
  return new Promise((resolve) => {
    let outcome: Drained = 'drained';
    /** Answers in flight when the drain began, told to close their connection. */
    const told = new WeakSet<ServerResponse>();
    const close = (res: ServerResponse): void => {
      if (!res.headersSent) res.setHeader('connection', 'close');
    };
    // A request that still arrives on an open keep-alive connection is served, then its
    // connection closes: the client retries elsewhere instead of hitting a closed socket.
    const closing = (req: IncomingMessage, res: ServerResponse): void => {
      close(res);
      // Pipelined behind an answer in flight that was to close the connection: that one
      // keeps it open after all, so that this one is answered (node would drop it).
      const ahead = answering(req.socket);
      if (ahead && ahead !== res && told.has(ahead) && !ahead.headersSent) ahead.removeHeader('connection');
    };
    server.prependListener('request', closing);
    // Requests with an `Expect` skip 'request' for one of these, when it has a listener.
    for (const event of ['checkContinue', 'checkExpectation']) {
      if (server.listenerCount(event) > 0) server.prependListener(event, closing);
    }
    const open = (server as Tracked)[CONNECTIONS] ?? new Set<Socket>();
    // The answers being worked on say so too (RFC 9112 §9.6): a client told `keep-alive`
    // would send its next request into a connection about to close.
    for (const socket of open) {
      const res = answering(socket);
      if (res && !res.headersSent) {
        close(res);
        told.add(res);
      }
    }
    // A connection that has sent nothing at all carries no request to finish (a browser's
    // preconnect): closed once it has stayed silent for a sweep, as its request may be on its way.
    let silent = new Set<Socket>();
    const sweep = setInterval(() => {
      // `close()` ends the connections idle right now; one whose response is still running
      // turns idle when it finishes and has no event of its own to hook, so look again shortly.
      server.closeIdleConnections();
      const still = new Set<Socket>();
      for (const socket of open) {
        if (socket.bytesRead > 0 || answering(socket)) continue;
        if (silent.has(socket)) socket.destroy();
        else still.add(socket);
      }
      silent = still;
    }, SWEEP_EVERY_MS);
    const deadline = setTimeout(() => {
      outcome = 'forced';
      server.closeAllConnections();
    }, graceMs);
    // net's close, not http's: http's would also stop node's checks of `headersTimeout` and
    // `requestTimeout`, and a client that sends its request slowly must still meet them.
    NetServer.prototype.close.call(server, () => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(outcome);
    });
    server.closeIdleConnections();
  });
}

/**
 * How soon after a stop signal the same signal again is that request to stop once more,
 * not a second one. `npm start` and `npm run dev` pass a SIGINT or SIGTERM they receive on
 * to their script (npm's run-script), and a Ctrl-C, or a signal to the process group (a
 * supervisor's), reaches that script directly too: the two copies arrive well under a
 * millisecond apart (0.06 to 0.74 ms measured, also with both cores busy). A second Ctrl-C
 * from a person comes later than this.
 */
export const SAME_STOP_MS = 25;

/**
 * Calls `handle(signal, again)` on each SIGTERM and SIGINT, `again` true for one that asks a
 * second time, leaving out the copies of a signal that arrive within `SAME_STOP_MS` of it.
 */
export function onStopSignals(handle: (signal: NodeJS.Signals, again: boolean) => void): () => void {
  let first: { signal: NodeJS.Signals; at: number } | null = null;
  const listener = (signal: NodeJS.Signals): void => {
    const at = performance.now();
    if (first === null) {
      first = { signal, at };
      handle(signal, false);
    } else if (signal !== first.signal || at - first.at >= SAME_STOP_MS) {
      handle(signal, true);
    }
  };
  process.on('SIGTERM', listener).on('SIGINT', listener);
  return () => void process.off('SIGTERM', listener).off('SIGINT', listener);
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT. A second signal exits at once with 1
 * (a second Ctrl-C from someone who will not wait for the grace period); the same signal
 * passed on by a parent such as npm is not a second one (`SAME_STOP_MS`).
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  return onStopSignals((signal, again) => {
    if (!again) return stop(signal);
    process.stderr.write(`svc: ${signal} again; exiting without waiting for requests in flight\n`);
    process.exit(1);
  });
}
