// `svc serve --workers N` (runtime/server/cluster.ts): the primary process is the one
// writer of shoebox/logs/ and shoebox/metrics/, and the one keeper of rate-limit counts.
// Workers hand it their log lines and their counters over the cluster IPC channel, so
// lines never interleave and no count is lost; a worker answering the metrics endpoint
// asks the primary for the whole server's totals.
import cluster from 'node:cluster';

/** Per-route counters indexed by route id (every process serves the same build). */
export interface RouteCounts {
  hits: number[];
  totalMs: number[];
}

/** One request of client `key` against a rate limiter, at `now` (ms since the epoch). */
export interface RateHit {
  id: number;
  limiter: string;
  key: string;
  now: number;
  windowMs: number;
  maxKeys: number;
}

export interface RateWindow {
  id: number;
  count: number;
  resetAt: number;
}

export type ClusterMessage =
  /** worker → primary: whole lines for svc.log (an entry may hold several, each ending in a newline) */
  | { svc: 'log'; lines: string[] }
  /** worker → primary: everything this worker counted since it started */
  | { svc: 'metrics'; counts: RouteCounts }
  /** worker → primary: `metrics`, and an answer wanted: the metrics endpoint is being read */
  | { svc: 'metrics-scrape'; counts: RouteCounts }
  /** primary → worker: the whole server's counts, that worker's report included (answers `metrics-scrape`, in order) */
  | { svc: 'metrics-totals'; counts: RouteCounts }
  /** worker → primary: requests to count against rate limiters (runtime/knots/cluster-windows.ts) */
  | { svc: 'rate-hits'; hits: RateHit[] }
  /** primary → worker: the window each of them landed in, counted over every worker */
  | { svc: 'rate-windows'; windows: RateWindow[] }
  /** primary → worker: drain and exit (the primary got SIGTERM or SIGINT) */
  | { svc: 'stop' };

/** Set by the primary of `svc serve --workers` in the environment of the workers it forks: its pid. */
const PRIMARY_PID = 'SVC_PRIMARY_PID';

/** The environment `cluster.fork()` adds for a worker of this primary. */
export const workerEnv = (): Record<string, string> => ({ [PRIMARY_PID]: String(process.pid) });

/**
 * True in a worker of `svc serve --workers`. A cluster worker that another primary forked
 * (PM2's cluster mode, a process manager's own `cluster.fork()`) serves as a process of
 * its own: that primary speaks none of the messages above, and the log lines, counts and
 * rate-limited requests sent to it would be lost. The parent's pid, not the variable
 * alone, decides: a worker's own children inherit its environment.
 */
export const inSvcWorker = (): boolean => cluster.isWorker && process.env[PRIMARY_PID] === String(process.ppid);

/** Resolves once the message is handed to the channel, so a worker may exit after it. */
export function toPrimary(message: ClusterMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    process.send!(message, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** Calls `listener` with each message of kind `kind` the primary sends this worker. */
export function fromPrimary<K extends ClusterMessage['svc']>(kind: K, listener: (message: Extract<ClusterMessage, { svc: K }>) => void): void {
  process.on('message', (message: unknown) => {
    if (isClusterMessage(message) && message.svc === kind) listener(message as Extract<ClusterMessage, { svc: K }>);
  });
}

export function isClusterMessage(value: unknown): value is ClusterMessage {
  return typeof value === 'object' && value !== null && typeof (value as { svc?: unknown }).svc === 'string';
}
