// The exposition text for awkward route patterns, read back by a real parser.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { prometheusText } from '../../runtime/endpoints/prometheus.ts';

it('escapes backslash, double quote and newline in label values', () => {
  const awkward = ['/say/"hi"', '/back\\slash', '/line\nbreak', '/plain/{id}'];
  const text = prometheusText(awkward.map((path, id) => ({ id, method: 'GET', path, hits: id + 1, totalMs: 1.5 * (id + 1), avgMs: 1.5 })));
  const [hits, durations] = parsePrometheusTextFormat(text);
  assert.deepEqual(
    hits!.metrics.map((m) => [m.labels?.route, m.value]),
    awkward.map((path, id) => [path, String(id + 1)]),
  );
  assert.deepEqual(
    durations!.metrics.map((m) => [m.labels?.route, m.count, Number(m.sum)]),
    awkward.map((path, id) => [path, String(id + 1), (1.5 * (id + 1)) / 1000]),
  );
});

it('gives durations to the microsecond, without the binary noise of summed clock readings', () => {
  const text = prometheusText([{ id: 0, method: 'GET', path: '/a', hits: 3, totalMs: 2.829749 + 0.0000004, avgMs: 0.9432498 }]);
  assert.match(text, /^svc_route_duration_seconds_sum\{method="GET",route="\/a"\} 0\.00283$/m);
});

it('declares both families even before any route exists', () => {
  const families = parsePrometheusTextFormat(prometheusText([]));
  assert.deepEqual(
    families.map((f) => [f.name, f.type, f.metrics.length]),
    [
      ['svc_route_hits_total', 'COUNTER', 0],
      ['svc_route_duration_seconds', 'SUMMARY', 0],
    ],
  );
});
