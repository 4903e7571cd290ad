import type { Knex } from 'knex';

import { addDays } from '../../core/domain/dates.ts';
import type { SubscriptionRow } from '../../core/store/repos/subscriptions.ts';

const CURRENCIES = ['EUR', 'EUR', 'EUR', 'USD', 'GBP'] as const;

export interface SyntheticOptions {
  householdId: string;
  memberId: (i: number) => string;
  now: string;
  idPrefix?: string;
  /** Every 11th is paused since 2025-06-01 unless false. */
  somePaused?: boolean;
  categoryId?: (i: number) => string | null;
}

/**
 * The i-th of a large synthetic household's subscriptions, as a stored row for bulk insert: a mix
 * of EUR, USD and GBP, monthly with every 7th yearly, first charges spread over four years. Used by
 * the large-household tests and the benchmarks, so both measure the same shape.
 */
export function syntheticSubscription(i: number, o: SyntheticOptions): SubscriptionRow {
  const paused = o.somePaused !== false && i % 11 === 0;
  return {
    id: `${o.idPrefix ?? 'sub_s'}${i}`,
    household_id: o.householdId,
    member_id: o.memberId(i),
    name: `Service ${i}`,
    vendor: null,
    amount_minor: 199 + ((i * 37) % 5000),
    currency: CURRENCIES[i % CURRENCIES.length] ?? 'EUR',
    cycle_unit: i % 7 === 0 ? 'year' : 'month',
    cycle_every: 1,
    first_charge_date: addDays('2020-01-01', i % 1500),
    status: paused ? 'paused' : 'active',
    trial_ends_on: null,
    paused_on: paused ? '2025-06-01' : null,
    cancelled_on: null,
    contract_ends_on: null,
    notice_days: null,
    category_id: o.categoryId?.(i) ?? null,
    payment_method_id: null,
    notes: null,
    url: null,
    cancel_url: null,
    private: 0,
    created_at: o.now,
    updated_at: o.now,
  };
}

/** The ECB's published USD and GBP rates of 2024-06-28, so synthetic households total in full. */
export async function seedSyntheticRates(db: Knex): Promise<void> {
  for (const [currency, perEur] of [
    ['USD', 1.0705],
    ['GBP', 0.84638],
  ] as const) {
    await db('fx_rates')
      .insert({
        id: `fx_${currency}`,
        household_id: '',
        date: '2024-06-28',
        currency,
        per_eur: perEur,
        source: 'ecb',
      })
      .onConflict()
      .ignore(); // a bench on a PostgreSQL database an earlier run left behind finds them there
  }
}
