import type { Database } from '../connection.ts';

/**
 * Totals an operator watches, read from the tables that already record them (no counters kept in
 * memory, so every process of several reports the same figures): model calls, tokens and
 * estimated cost by provider and outcome; reminders by status; short-lived flows still open, by
 * kind (pending changes, buttons, conversations waiting for an answer).
 */
export interface OperationsSnapshot {
  model: Array<{
    provider: string;
    outcome: string;
    calls: number;
    inputTokens: number;
    outputTokens: number;
    costMicros: number;
  }>;
  reminders: Array<{ status: string; count: number }>;
  openFlows: Array<{ kind: string; count: number }>;
}

const num = (v: unknown): number => Number(v ?? 0);

export async function operationsSnapshot(db: Database, now: Date): Promise<OperationsSnapshot> {
  const k = db.knex;
  const model = (await k('assistant_usage')
    .select('provider', 'outcome')
    .sum({ calls: 'calls', input: 'input_tokens', output: 'output_tokens', cost: 'cost_micros' })
    .groupBy('provider', 'outcome')
    .orderBy(['provider', 'outcome'])) as Array<Record<string, unknown>>;
  const reminders = (await k('reminder_log')
    .select('status')
    .count({ n: '*' })
    .groupBy('status')
    .orderBy('status')) as Array<Record<string, unknown>>;
  const flows = (await k('flows')
    .select('kind')
    .count({ n: '*' })
    .whereNull('used_at')
    .where('expires_at', '>', now.toISOString())
    .groupBy('kind')
    .orderBy('kind')) as Array<Record<string, unknown>>;
  return {
    model: model.map((r) => ({
      provider: String(r.provider),
      outcome: String(r.outcome),
      calls: num(r.calls),
      inputTokens: num(r.input),
      outputTokens: num(r.output),
      costMicros: num(r.cost),
    })),
    reminders: reminders.map((r) => ({ status: String(r.status), count: num(r.n) })),
    openFlows: flows.map((r) => ({ kind: String(r.kind), count: num(r.n) })),
  };
}
