// The process `svc tread` serves from: plain Node, without the TypeScript loader the
// compiler runs under, so loading each rebuilt bundle costs what it costs in production.
// It swaps the request handler when told to load a build, and accepts on the listening
// socket tread hands it (compiler/cli/shared-socket.ts).
//   parent → { load: href } → { loaded: true } | { failed: message }
//   parent → { listen: true } and the socket → { listening: url } | { failed: message, code }
//   parent → { release: true } → { released: graceMs }, then the process exits (stop below)
import { createServer } from 'node:http';
import { outliveLostOutput } from '../../bin/stdio-errors.js';

const root = process.cwd();
/** As compiler/cli/expected-failures.ts (this file is plain JavaScript): failures whose message says it all. */
const EXPECTED = new Set(['GuardTokenError', 'StaleBuildError', 'ListenError', 'ErrorPageError']);
let current = null;
let currentBuild = null;

outliveLostOutput(); // as bin/svc.js: the output is svc tread's, which may have lost its reader

// Logged by the build being served, as `svc serve` logs it, rather than ending the process.
process.on('unhandledRejection', (reason) => (currentBuild ? currentBuild.logUnhandledRejection(reason) : console.error(reason)));

// Each build's svc.json timeouts are applied as it loads; Node checks them this often.
// The other options and listeners are those of `svc serve` (runtime/server/boot.ts).
const server = createServer({ connectionsCheckingInterval: 1000, requireHostHeader: false }, serve('handle'));
server.httpAllowHalfOpen = true; // a half-closed client still gets its answers (boot.ts, answerHalfClosed)
server.on('checkContinue', serve('checkContinue'));
server.on('checkExpectation', serve('checkExpectation'));
server.on('connect', (req, socket) => (current ? current.connect(req, socket) : socket.destroy()));
server.on('clientError', (error, socket) => (current ? current.clientError(error, socket) : socket.destroy()));

/** Requests each build is answering: one replaced is closed once its last request ends. */
const answering = new Map();
/** Builds being closed, for the process to wait for before it exits. */
const closing = new Set();

/** A request listener that hands the request to the build being served as it arrives. */
function serve(listener) {
  return (req, res) => {
    const handler = current;
    if (handler === null) return noBuild(res);
    answering.set(handler, (answering.get(handler) ?? 0) + 1);
    res.once('close', () => {
      answering.set(handler, answering.get(handler) - 1);
      if (handler !== current) closeWhenIdle(handler);
    });
    handler[listener](req, res);
  };
}

/**
 * Closes a replaced build (its log, metrics and database connection) once it answers no
 * more requests: one still running keeps the connection it started with, and its count.
 */
function closeWhenIdle(handler) {
  if ((answering.get(handler) ?? 0) > 0) return;
  answering.delete(handler);
  const closed = handler
    .close()
    .catch((error) => console.error('svc tread: closing a replaced build failed:', error))
    .finally(() => closing.delete(closed));
  closing.add(closed);
}

function noBuild(res) {
  res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('svc tread: no successful build yet; see the terminal.\n');
}

async function load(href) {
  const build = await import(href);
  const next = await build.handler({ root, dev: true });
  try {
    build.applyTimeouts(server, next.app.manifest.config.server);
    build.trackConnections(server);
  } catch (error) {
    await next.close();
    throw error;
  }
  const previous = current;
  current = next;
  currentBuild = build;
  if (previous !== null) closeWhenIdle(previous);
}

function listen(socket) {
  return new Promise((resolve, reject) => {
    server.once('error', reject).listen(socket, () => {
      const { address, family, port: bound } = server.address();
      resolve(`http://${family === 'IPv6' ? `[${address}]` : address}:${bound}`);
    });
  });
}

process.on('message', async (message, socket) => {
  try {
    if (message.load) {
      await load(message.load);
      process.send({ loaded: true });
    } else if (message.listen) {
      process.send({ listening: await listen(socket) });
    } else if (message.release) {
      process.send({ released: stop() });
    }
  } catch (error) {
    const failed = !(error instanceof Error) ? String(error) : EXPECTED.has(error.name) ? error.message : (error.stack ?? error.message);
    process.send({ failed, code: error?.code, name: error?.name });
  }
});

let graceMs = null;

/**
 * Stops accepting at once, leaving the socket's new connections to its replacement, and exits once the
 * requests in flight have finished (within the served build's grace period, as `svc
 * serve` does) and the logs and metrics are flushed. Returns the grace period.
 */
function stop() {
  if (graceMs !== null) return graceMs;
  graceMs = current ? current.app.manifest.config.server.shutdownGraceMs : 0;
  const drained = currentBuild ? currentBuild.drain(server, graceMs) : closeAll();
  drained.then(() => Promise.all([current?.close(), ...closing])).finally(() => process.exit(0));
  return graceMs;
}

async function closeAll() {
  server.close();
  server.closeAllConnections();
}

// A second Ctrl-C (it reaches this process too) or SIGTERM does not wait for requests in flight.
let signals = 0;
const onSignal = () => (++signals === 1 ? stop() : process.exit(1));
process.on('SIGINT', onSignal).on('SIGTERM', onSignal).once('disconnect', stop);
