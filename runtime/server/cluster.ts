// `svc serve --workers N`: a primary process and N workers (node:cluster) that each run
// the whole application on the one shared port. The primary serves no request: it owns
// the signals, shoebox/logs/svc.log, shoebox/metrics/ and the rate-limit counts (workers
// send it their log lines, counters and rate-limited requests, runtime/shoebox/cluster-link.ts),
// replaces a worker that dies, and on SIGTERM/SIGINT tells every worker to drain, then
// flushes and exits.
import cluster, { type Worker } from 'node:cluster';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardToken } from '../endpoints/guard.ts';
import { RateHub } from '../knots/cluster-windows.ts';
import { isClusterMessage, workerEnv, type ClusterMessage } from '../shoebox/cluster-link.ts';
import { formatLogLine, logWriter, type LogWriter } from '../shoebox/log.ts';
import { MetricsHub } from '../shoebox/metrics/cluster.ts';
import { RouteMetrics } from '../shoebox/metrics/route-metrics.ts';
import { readBuildJson } from './build-output.ts';
import { checkManifest } from './build-shape.ts';
import { onStopSignal } from './shutdown.ts';

/** How long after the workers' own grace period the primary waits before killing them. */
const KILL_MARGIN_MS = 5000;

interface Member {
  worker: Worker;
  listening: boolean;
  /** Both must happen before a worker is gone: 'disconnect' comes once its last message was read. */
  exited: boolean;
  disconnected: boolean;
  code: number | null;
}

/**
 * Runs the primary until the workers are gone. Resolves with the exit code: 0 after a
 * clean stop, 1 when a worker failed to start or had to be cut off.
 */
export async function servePrimary(root: string, workers: number): Promise<number> {
  const manifest = checkManifest(readBuildJson(pathToFileURL(join(root, '.svc', 'manifest.json'))));
  // Refused here once, rather than by every worker in turn.
  guardToken(manifest.config.endpoints.guarded);
  const log = logWriter(root, manifest.config.logs);
  const metrics = await RouteMetrics.open(root, manifest.routes);
  // A second Ctrl-C exits at once (shutdown.ts): what the workers reported is written first.
  process.once('exit', () => {
    metrics.saveNow();
    log.flushNow();
  });
  const code = await new Primary(workers, manifest.config.server.shutdownGraceMs, log, new MetricsHub(metrics)).run();
  await metrics.close();
  await log.flush();
  return code;
}

class Primary {
  private readonly members = new Map<number, Member>();
  private readonly rates = new RateHub();
  private stopping = false;
  private failed = false;
  private announced = false;
  private finish!: (code: number) => void;

  constructor(
    private readonly size: number,
    private readonly graceMs: number,
    private readonly log: LogWriter,
    private readonly hub: MetricsHub,
  ) {}

  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    // A Ctrl-C reaches the workers too; they drain once however many stop requests arrive.
    onStopSignal((signal) => {
      console.log(`svc: ${signal}: stopping ${this.members.size} workers (requests in flight get at most ${this.graceMs} ms)`);
      this.stop();
    });
    cluster.on('listening', (worker, address) => this.listening(worker, address));
    for (let i = 0; i < this.size; i++) this.fork();
    return done;
  }

  private fork(): void {
    const worker = cluster.fork(workerEnv());
    const member: Member = { worker, listening: false, exited: false, disconnected: false, code: null };
    this.members.set(worker.id, member);
    worker.on('message', (message: unknown) => {
      if (isClusterMessage(message)) this.received(worker, message);
    });
    worker.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      member.exited = true;
      member.code = code ?? (signal ? 1 : 0);
      this.gone(member, signal);
    });
    worker.once('disconnect', () => {
      member.disconnected = true;
      this.gone(member, null);
    });
  }

  private received(worker: Worker, message: ClusterMessage): void {
    if (message.svc === 'rate-hits') this.send(worker, { svc: 'rate-windows', windows: this.rates.count(message.hits) });
    else if (message.svc === 'log') for (const line of message.lines) this.log.append(line);
    else if (message.svc === 'metrics' || message.svc === 'metrics-scrape') {
      this.hub.report(worker.id, message.counts);
      if (message.svc === 'metrics-scrape') this.send(worker, { svc: 'metrics-totals', counts: this.hub.totals() });
    }
  }

  private listening(worker: Worker, address: { address: string | null; port: number; addressType: number | string }): void {
    const member = this.members.get(worker.id);
    if (!member) return;
    member.listening = true;
    // A worker listens for `stop` before it listens for requests; one still starting at the stop hears it now.
    if (this.stopping) return this.send(worker, { svc: 'stop' });
    if (this.announced || [...this.members.values()].some((m) => !m.listening)) return;
    this.announced = true;
    const host = address.address ?? '0.0.0.0';
    const shown = host.includes(':') ? `[${host}]` : host;
    console.log(`svc: serving http://${shown}:${address.port} (${this.size} workers)`);
  }

  private gone(member: Member, signal: NodeJS.Signals | null): void {
    if (!member.exited || !member.disconnected || !this.members.has(member.worker.id)) return;
    this.members.delete(member.worker.id);
    this.hub.forget(member.worker.id);
    // A worker that died while serving was replaced: that is recovery, not a failed stop.
    if (member.code !== 0 && (this.stopping || !member.listening)) this.failed = true;
    if (!this.stopping) {
      const how = signal ? `signal ${signal}` : `code ${member.code}`;
      if (!member.listening) {
        console.error(`svc: worker ${member.worker.process.pid} exited with ${how} before it could serve; stopping.`);
        this.stop();
      } else {
        this.log.append(formatLogLine('cluster', `worker ${member.worker.process.pid} exited with ${how}; starting another`));
        this.fork();
      }
    }
    if (this.stopping && this.members.size === 0) this.finish(this.failed ? 1 : 0);
  }

  private stop(): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const { worker, listening } of this.members.values()) if (listening) this.send(worker, { svc: 'stop' });
    setTimeout(() => {
      for (const { worker } of this.members.values()) worker.process.kill('SIGKILL');
    }, this.graceMs + KILL_MARGIN_MS).unref();
    if (this.members.size === 0) this.finish(1);
  }

  private send(worker: Worker, message: ClusterMessage): void {
    // A worker that is exiting may have closed its channel already: it needs nothing more.
    if (worker.isConnected()) worker.send(message, () => {});
  }
}
