// Route metrics across the processes of `svc serve --workers N` (runtime/server/cluster.ts).
// Each worker counts its own requests and reports its running totals, not increments,
// so a report can be applied twice or late without counting anything twice. The
// primary's `RouteMetrics` holds the restored counts plus every report and is the one
// that saves shoebox/metrics/; each worker is sent back everyone else's counts so its
// metrics endpoint answers for the whole server.
import { fromPrimary, toPrimary, type RouteCounts } from '../cluster-link.ts';
import type { RouteMetrics } from './route-metrics.ts';

/** Worker side: `receive` gets everyone else's counts; the returned function reports this worker's own. */
export function linkToPrimary(receive: (others: RouteCounts) => void): (own: RouteCounts) => Promise<void> {
  fromPrimary('metrics-others', (message) => receive(message.counts));
  return (counts) => toPrimary({ svc: 'metrics', counts });
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

  /** What `worker` shows besides its own counts: the totals without its last report. */
  othersOf(worker: number): RouteCounts {
    const totals = this.metrics.counts();
    const own = this.reported.get(worker);
    return own ? minus(totals, own) : totals;
  }

  /** A worker is gone for good (all its messages were read): its counts stay in the totals. */
  forget(worker: number): void {
    this.reported.delete(worker);
  }
}

function minus(a: RouteCounts, b: RouteCounts): RouteCounts {
  return { hits: a.hits.map((value, i) => value - (b.hits[i] ?? 0)), totalMs: a.totalMs.map((value, i) => value - (b.totalMs[i] ?? 0)) };
}
