// Graceful stop for `svc serve` (SIGTERM from an orchestrator, SIGINT from a terminal):
// stop accepting, let the requests in flight finish within a grace period, close
// keep-alive connections as soon as they fall idle, and only then flush and exit.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type Drained = 'drained' | 'forced';

/** How often idle keep-alive connections are looked for while draining. */
const SWEEP_EVERY_MS = 50;

/**
 * Closes `server` and resolves once its last connection is gone: `'drained'` when every
 * request in flight finished, `'forced'` when some were still running after `graceMs`
 * and their connections were cut.
 */
export function drain(server: Server, graceMs: number): Promise<Drained> {
  return new Promise((resolve) => {
    let outcome: Drained = 'drained';
    // A request that still arrives on an open keep-alive connection is served, then its
    // connection closes: the client retries elsewhere instead of hitting a closed socket.
    const closing = (_req: IncomingMessage, res: ServerResponse): void => {
      res.setHeader('connection', 'close');
    };
    server.prependListener('request', closing);
    // Requests with an `Expect` skip 'request' for one of these, when it has a listener.
    for (const event of ['checkContinue', 'checkExpectation']) {
      if (server.listenerCount(event) > 0) server.prependListener(event, closing);
    }
    // `close()` ends the connections idle right now; one whose response is still running
    // turns idle when it finishes and has no event of its own to hook, so look again shortly.
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_EVERY_MS);
    const deadline = setTimeout(() => {
      outcome = 'forced';
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(outcome);
    });
  });
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT. A second signal exits at once with 1
 * (a second Ctrl-C from someone who will not wait for the grace period).
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`svc: ${signal} again; exiting without waiting for requests in flight\n`);
      process.exit(1);
    }
    stopping = true;
    stop(signal);
  };
  process.on('SIGTERM', handle).on('SIGINT', handle);
}
