import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';

import {
  Counter,
  Gauge,
  Histogram,
  PROMETHEUS_CONTENT_TYPE,
  renderMetrics,
} from '../../bot/metricsText.ts';

const BUCKETS = [0.001, 0.0025, 0.01, 0.5, 1, 10];

/**
 * Exhale counts its own metrics without prom-client (loaded only at the first scrape, for the
 * process metrics): what a scraper reads must be exactly what prom-client would have written.
 */
describe('metrics text without prom-client', () => {
  it('writes counters, gauges and histograms byte for byte as prom-client does, escaping included', async () => {
    const registry = new prom.Registry();
    const theirs = {
      calls: new prom.Counter({
        name: 'x_calls_total',
        help: 'Calls\\ by op\nand "surface".',
        labelNames: ['op', 'surface'] as const,
        registers: [registry],
      }),
      empty: new prom.Counter({
        name: 'x_empty_total',
        help: 'Never counted.',
        labelNames: ['code'] as const,
        registers: [registry],
      }),
      level: new prom.Gauge({
        name: 'x_level',
        help: 'A level.',
        labelNames: ['kind'] as const,
        registers: [registry],
      }),
      durations: new prom.Histogram({
        name: 'x_duration_seconds',
        help: 'Durations.',
        labelNames: ['op', 'surface'] as const,
        buckets: BUCKETS,
        registers: [registry],
      }),
    };
    const ours = {
      calls: new Counter('x_calls_total', 'Calls\\ by op\nand "surface".', ['op', 'surface']),
      empty: new Counter('x_empty_total', 'Never counted.', ['code']),
      level: new Gauge('x_level', 'A level.', ['kind']),
      durations: new Histogram('x_duration_seconds', 'Durations.', ['op', 'surface'], BUCKETS),
    };
    const odd = { op: 'a"b\\c\nd', surface: 'mcp' };
    for (const m of [theirs, ours]) {
      m.calls.inc({ op: 'get_totals', surface: 'mcp' });
      m.calls.inc(odd);
      m.calls.inc({ op: 'get_totals', surface: 'mcp' }, 2);
      m.level.set({ kind: 'buttons' }, 3);
      m.level.set({ kind: 'buttons' }, 0.25);
      m.level.set({ kind: 'nan' }, Number.NaN);
      m.level.set({ kind: 'inf' }, Number.POSITIVE_INFINITY);
      for (const seconds of [0.0004, 0.001, 0.003, 0.7, 12, 0.1 + 0.2])
        m.durations.observe({ op: 'get_totals', surface: 'web' }, seconds);
      m.durations.observe(odd, 0.02);
    }
    expect(renderMetrics(Object.values(ours))).toBe(await registry.metrics());
    expect(PROMETHEUS_CONTENT_TYPE).toBe(registry.contentType);

    theirs.level.reset();
    ours.level.reset();
    expect(renderMetrics(Object.values(ours))).toBe(await registry.metrics());
  });
});
