import { describe, expect, it } from '@jest/globals';
import {
  Counter,
  escapeHelp,
  escapeLabelValue,
  formatValue,
  gauge,
  Histogram,
  render,
} from '../../../src/hosting/prometheus.js';

describe('the Prometheus text format', () => {
  it('escapes backslash, double quote and line feed in label values', () => {
    expect(escapeLabelValue('a\\b "c"\nd')).toBe('a\\\\b \\"c\\"\\nd');
  });

  it('escapes backslash and line feed in help text but leaves quotes alone', () => {
    expect(escapeHelp('say "hi"\\now\nthen')).toBe('say "hi"\\\\now\\nthen');
  });

  it('writes special values the way the format spells them', () => {
    expect([Infinity, -Infinity, NaN, 0.25, 3].map(formatValue)).toEqual(['+Inf', '-Inf', 'NaN', '0.25', '3']);
  });

  it('writes HELP and TYPE before the samples, one series per label set, ending in a newline', () => {
    const counter = new Counter('demo_requests_total', 'Requests.\nBy route.', ['route', 'code']);
    counter.inc({ route: 'getVote', code: '200' });
    counter.inc({ route: 'getVote', code: '200' }, 2);
    counter.inc({ route: 'weird "route"\\x\n', code: '500' });
    expect(render([counter.collect()])).toBe(
      [
        '# HELP demo_requests_total Requests.\\nBy route.',
        '# TYPE demo_requests_total counter',
        'demo_requests_total{route="getVote",code="200"} 3',
        'demo_requests_total{route="weird \\"route\\"\\\\x\\n",code="500"} 1',
        '',
      ].join('\n'),
    );
  });

  it('keeps HELP and TYPE for a family with no samples yet, and renders nothing at all for no families', () => {
    expect(render([new Counter('demo_total', 'None yet.').collect()])).toBe(
      '# HELP demo_total None yet.\n# TYPE demo_total counter\n',
    );
    expect(render([])).toBe('');
  });

  it('refuses a counter going down and invalid names', () => {
    const counter = new Counter('demo_total', 'x');
    expect(() => counter.inc({}, -1)).toThrow(/only goes up/);
    expect(() => new Counter('9lives', 'x')).toThrow(/invalid metric name/);
    expect(() => new Counter('ok_total', 'x', ['__reserved'])).toThrow(/invalid label name/);
    expect(() => new Histogram('h', 'x', [1], ['le' as never])).toThrow();
  });

  it('makes histogram buckets cumulative, adds +Inf, _sum and _count', () => {
    const histogram = new Histogram('demo_seconds', 'Latency.', [0.1, 0.5, 1], ['handler']);
    for (const value of [0.05, 0.1, 0.3, 0.7, 2]) histogram.observe({ handler: '/vote' }, value);
    histogram.observe({ handler: '/votes' }, 0.2);
    expect(render([histogram.collect()]).split('\n')).toEqual([
      '# HELP demo_seconds Latency.',
      '# TYPE demo_seconds histogram',
      'demo_seconds_bucket{handler="/vote",le="0.1"} 2',
      'demo_seconds_bucket{handler="/vote",le="0.5"} 3',
      'demo_seconds_bucket{handler="/vote",le="1"} 4',
      'demo_seconds_bucket{handler="/vote",le="+Inf"} 5',
      'demo_seconds_sum{handler="/vote"} 3.15',
      'demo_seconds_count{handler="/vote"} 5',
      'demo_seconds_bucket{handler="/votes",le="0.1"} 0',
      'demo_seconds_bucket{handler="/votes",le="0.5"} 1',
      'demo_seconds_bucket{handler="/votes",le="1"} 1',
      'demo_seconds_bucket{handler="/votes",le="+Inf"} 1',
      'demo_seconds_sum{handler="/votes"} 0.2',
      'demo_seconds_count{handler="/votes"} 1',
      '',
    ]);
  });

  it('sorts buckets given out of order and ignores NaN observations', () => {
    const histogram = new Histogram('demo_seconds', 'x', [1, 0.1]);
    histogram.observe({}, NaN);
    histogram.observe({}, 0.5);
    const text = render([histogram.collect()]);
    expect(text).toContain(
      'demo_seconds_bucket{le="0.1"} 0\ndemo_seconds_bucket{le="1"} 1\ndemo_seconds_bucket{le="+Inf"} 1\n',
    );
    expect(text).toContain('demo_seconds_count 1\n');
  });

  it('writes a gauge without labels, and leaves an unknown value out', () => {
    expect(render([gauge('demo_up', 'Up.', 1)])).toBe('# HELP demo_up Up.\n# TYPE demo_up gauge\ndemo_up 1\n');
    expect(render([gauge('demo_ping_seconds', 'Ping.', undefined)])).toBe(
      '# HELP demo_ping_seconds Ping.\n# TYPE demo_ping_seconds gauge\n',
    );
  });
});
