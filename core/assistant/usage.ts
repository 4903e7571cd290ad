import type { Knex } from 'knex';

import type { Usage } from './model.ts';

export type Outcome = 'answered' | 'limit' | 'refused' | 'failed';

export interface UsageRecord {
  id: string;
  householdId: string;
  memberId: string;
  channel: string;
  provider: string;
  model: string;
  calls: number;
  usage: Usage;
  costMicros: number | null;
  outcome: Outcome;
  at: Date;
}

/** Records one question's usage: counts and cost, never the words. */
export async function recordUsage(db: Knex, record: UsageRecord): Promise<void> {
  await db('assistant_usage').insert({
    id: record.id,
    household_id: record.householdId,
    member_id: record.memberId,
    channel: record.channel,
    provider: record.provider,
    model: record.model.slice(0, 200),
    calls: record.calls,
    input_tokens: record.usage.inputTokens,
    output_tokens: record.usage.outputTokens,
    cost_micros: record.costMicros,
    outcome: record.outcome,
    created_at: record.at.toISOString(),
  });
}
