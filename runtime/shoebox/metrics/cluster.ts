// Route metrics across the processes of `svc serve --workers N` (runtime/server/cluster.ts).
// Each worker counts its own requests and reports its running totals, not increments,
// so a report can be applied twice or late without counting anything twice. The
// primary's `RouteMetrics` holds the restored counts plus every report and is the one
// that saves shoebox/metrics/; a worker whose metrics endpoint is read asks it for the
// whole server's counts.
import { fromPrimary, toPrimary, type RouteCounts } from '../cluster-link.ts';
import type { RouteMetrics } from './route-metrics.ts';

export interface PrimaryLink {
  /** Reports this worker's own counts. */
  share(own: RouteCounts): Promise<void>;
  /**
   * Reports them and resolves to the whole server's, as the primary holds them. Every
   * scrape thus reads the one set of counts, which only grows, whichever worker answers
   * it: each worker's own counts plus the others' last report would go back and forth
   * between workers, and Prometheus takes a counter that goes down for a restart.
   */
  scrape(own: RouteCounts): Promise<RouteCounts>;
}

/** Worker side: the channel to the counts the primary keeps. */
export function linkToPrimary(): PrimaryLink {
  // The primary answers scrapes in the order they came: one channel, read in order.
  const waiting: Array<{ resolve(counts: RouteCounts): void; reject(error: Error): void }> = [];
  fromPrimary('metrics-totals', (message) => waiting.shift()?.resolve(message.counts));
  process.once('disconnect', () => waiting.splice(0).forEach(({ reject }) => reject(new Error('the primary closed the channel'))));
  return {
    share: (counts) => toPrimary({ svc: 'metrics', counts }),
    scrape: (counts) => {
      if (!process.connected) return Promise.reject(new Error('no channel to the primary'));
      return new Promise<RouteCounts>((resolve, reject) => {
        const entry = { resolve, reject };
        waiting.push(entry);
        // Not sent, so never answered: out of the queue, or it would take another's answer.
        toPrimary({ svc: 'metrics-scrape', counts }).catch((error: Error) => {
          const at = waiting.indexOf(entry);
          if (at >= 0) waiting.splice(at, 1);
          reject(error);
        });
      });
    },
  };
}

/** Primary side: folds the workers' reports into the primary's counters. */
export class MetricsHub {
  /** Each live worker's last report, by cluster worker id. */
  private readonly reported = new Map<number, RouteCounts>();

  constructor(private readonly metrics: RouteMetrics) {}

  report(worker: number, counts: RouteCounts): void {
    const before = this.reported.get(worker);
    this.metrics.add(before ? minus(counts, before) : counts);
    this.reported.set(worker, counts);
  }

  /** The whole server's counts: those restored at start and every report. */
  totals(): RouteCounts {
    return this.metrics.counts();
  }

  /** A worker is gone for good (all its messages were read): its counts stay in the totals. */
  forget(worker: number): void {
    this.reported.delete(worker);
  }
}

function minus(a: RouteCounts, b: RouteCounts): RouteCounts {
  return { hits: a.hits.map((value, i) => value - (b.hits[i] ?? 0)), totalMs: a.totalMs.map((value, i) => value - (b.totalMs[i] ?? 0)) };
}
