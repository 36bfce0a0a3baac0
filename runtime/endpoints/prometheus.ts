// Route metrics in the Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/).
import type { RouteStat } from '../shoebox/metrics/route-metrics.ts';
import { roundedSeconds } from './format.ts';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export function prometheusText(stats: readonly RouteStat[]): string {
  const labels = stats.map((stat) => `{method="${labelValue(stat.method)}",route="${labelValue(stat.path)}"}`);
  const lines = [
    '# HELP svc_route_hits_total Requests answered by each route.',
    '# TYPE svc_route_hits_total counter',
    ...stats.map((stat, i) => `svc_route_hits_total${labels[i]} ${stat.hits}`),
    '# HELP svc_route_duration_seconds Time spent answering the requests of each route.',
    '# TYPE svc_route_duration_seconds summary',
    // A summary's _sum and _count of one label set stay together.
    ...stats.flatMap((stat, i) => [
      `svc_route_duration_seconds_sum${labels[i]} ${roundedSeconds(stat.totalMs)}`,
      `svc_route_duration_seconds_count${labels[i]} ${stat.hits}`,
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

/** Label values escape backslash, double quote and line feed. */
const labelValue = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
