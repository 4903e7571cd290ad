import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import { type Core, operationsSnapshot, type OpObservation } from '../core/index.ts';

/**
 * The process's Prometheus metrics. Op calls and their durations are counted here as the kernel
 * reports them (`core.observe`); model usage, reminders and open flows are read from the database
 * at each scrape, so they are the same whichever process of several is scraped. Labels are
 * bounded: an op name not in the catalog is counted as `unknown`.
 */
export interface Metrics {
  /** The Prometheus text exposition of every metric. */
  render(): Promise<string>;
  readonly contentType: string;
  /** Stops watching the core. */
  stop(): void;
}

export function startMetrics(core: Core): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'exhale_' });
  const known = new Set(core.catalog.map((op) => op.name));

  const calls = new Counter({
    name: 'exhale_op_calls_total',
    help: 'Op calls, by op, surface and outcome (ok or the error code).',
    labelNames: ['op', 'surface', 'outcome'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'exhale_op_errors_total',
    help: 'Op calls that ended in an error, by error code.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'exhale_op_duration_seconds',
    help: 'Op call durations, by op and surface.',
    labelNames: ['op', 'surface'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const record = (o: OpObservation): void => {
    const op = known.has(o.op) ? o.op : 'unknown';
    const surface = o.surface ?? 'internal';
    calls.inc({ op, surface, outcome: o.outcome });
    if (o.outcome !== 'ok') errors.inc({ code: o.outcome });
    durations.observe({ op, surface }, o.durationMs / 1000);
  };
  const stopWatching = core.observe(record);

  const modelCalls = new Gauge({
    name: 'exhale_model_calls_total',
    help: 'Calls to the assistant’s model, by provider and outcome (all processes, from the database).',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const modelTokens = new Gauge({
    name: 'exhale_model_tokens_total',
    help: 'Model tokens, by provider and direction (input, output).',
    labelNames: ['provider', 'direction'] as const,
    registers: [registry],
  });
  const modelCost = new Gauge({
    name: 'exhale_model_cost_usd_total',
    help: 'Estimated model cost in US dollars, by provider (models without a price count 0).',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  const reminders = new Gauge({
    name: 'exhale_reminders',
    help: 'Reminders in the sent-log, by status (sent, claimed, superseded, failed).',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const openFlows = new Gauge({
    name: 'exhale_open_flows',
    help: 'Short-lived flows still open (pending changes, buttons, awaited answers), by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

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

  return {
    contentType: registry.contentType,
    async render() {
      await refresh();
      return registry.metrics();
    },
    stop: stopWatching,
  };
}
