import type { Registry } from 'prom-client';

import { type Core, operationsSnapshot, type OpObservation } from '../core/index.ts';
import {
  Counter,
  Gauge,
  Histogram,
  PROMETHEUS_CONTENT_TYPE,
  renderMetrics,
} from './metricsText.ts';

/**
 * The process's Prometheus metrics. Op calls and their durations are counted here as the kernel
 * reports them (`core.observe`); model usage, reminders and open flows are read from the database
 * at each scrape, so they are the same whichever process of several is scraped. Labels are
 * bounded: an op name not in the catalog is counted as `unknown`.
 *
 * Exhale's own metrics are kept in `./metricsText.ts` (no dependency); prom-client, for the
 * process and Node.js metrics (`exhale_process_*`, `exhale_nodejs_*`), is loaded on the first
 * scrape: a start without a scraper never pays for it. Its counters that accumulate (CPU time,
 * resident memory) read the process's totals; the event-loop lag and GC figures count from the
 * first scrape.
 */
export interface Metrics {
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
  /** Stops watching the core. */
  stop(): void;
}

export function startMetrics(core: Core): Metrics {
  const known = new Set(core.catalog.map((op) => op.name));

  const calls = new Counter(
    'exhale_op_calls_total',
    'Op calls, by op, surface and outcome (ok or the error code).',
    ['op', 'surface', 'outcome'],
  );
  const errors = new Counter(
    'exhale_op_errors_total',
    'Op calls that ended in an error, by error code.',
    ['code'],
  );
  const durations = new Histogram(
    'exhale_op_duration_seconds',
    'Op call durations, by op and surface.',
    ['op', 'surface'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  );
  const record = (o: OpObservation): void => {
    const op = known.has(o.op) ? o.op : 'unknown';
    const surface = o.surface ?? 'internal';
    calls.inc({ op, surface, outcome: o.outcome });
    if (o.outcome !== 'ok') errors.inc({ code: o.outcome });
    durations.observe({ op, surface }, o.durationMs / 1000);
  };
  const stopWatching = core.observe(record);

  const modelCalls = new Gauge(
    'exhale_model_calls_total',
    'Calls to the assistant’s model, by provider and outcome (all processes, from the database).',
    ['provider', 'outcome'],
  );
  const modelTokens = new Gauge(
    'exhale_model_tokens_total',
    'Model tokens, by provider and direction (input, output).',
    ['provider', 'direction'],
  );
  const modelCost = new Gauge(
    'exhale_model_cost_usd_total',
    'Estimated model cost in US dollars, by provider (models without a price count 0).',
    ['provider'],
  );
  const reminders = new Gauge(
    'exhale_reminders',
    'Reminders in the sent-log, by status (sent, claimed, superseded, failed).',
    ['status'],
  );
  const openFlows = new Gauge(
    'exhale_open_flows',
    'Short-lived flows still open (pending changes, buttons, awaited answers), by kind.',
    ['kind'],
  );

  const refresh = async (): Promise<void> => {
    const snapshot = await operationsSnapshot(core.db, core.clock());
    for (const g of [modelCalls, modelTokens, modelCost, reminders, openFlows]) g.reset();
    const tokens = new Map<string, { input: number; output: number; cost: number }>();
    for (const m of snapshot.model) {
      modelCalls.set({ provider: m.provider, outcome: m.outcome }, m.calls);
      const t = tokens.get(m.provider) ?? { input: 0, output: 0, cost: 0 };
      t.input += m.inputTokens;
      t.output += m.outputTokens;
      t.cost += m.costMicros;
      tokens.set(m.provider, t);
    }
    for (const [provider, t] of tokens) {
      modelTokens.set({ provider, direction: 'input' }, t.input);
      modelTokens.set({ provider, direction: 'output' }, t.output);
      modelCost.set({ provider }, t.cost / 1_000_000);
    }
    for (const r of snapshot.reminders) reminders.set({ status: r.status }, r.count);
    for (const f of snapshot.openFlows) openFlows.set({ kind: f.kind }, f.count);
  };

  // prom-client's registry of the process metrics, made by the first scrape.
  let processMetrics: Promise<Registry> | null = null;
  const loadProcessMetrics = (): Promise<Registry> => {
    processMetrics ??= import('prom-client').then(
      ({ Registry: PromRegistry, collectDefaultMetrics }) => {
        const registry = new PromRegistry();
        collectDefaultMetrics({ register: registry, prefix: 'exhale_' });
        return registry;
      },
      (error: unknown) => {
        processMetrics = null;
        throw error;
      },
    );
    return processMetrics;
  };
  const own = [calls, errors, durations, modelCalls, modelTokens, modelCost, reminders, openFlows];

  return {
    contentType: PROMETHEUS_CONTENT_TYPE,
    async render() {
      const [registry] = await Promise.all([loadProcessMetrics(), refresh()]);
      // One exposition, the process metrics first (as when they shared a registry).
      return `${(await registry.metrics()).trimEnd()}\n\n${renderMetrics(own)}`;
    },
    stop: stopWatching,
  };
}
