import type { Knex } from 'knex';

import { changedEverywhere } from '../kernel/readCache.ts';
import { ECB_HOUSEHOLD } from '../store/repos/fx.ts';
import type { EcbDay } from './parse.ts';

/** Rows per insert: 6 columns each keeps a statement well under SQLite's bound-parameter limit. */
const ROWS_PER_INSERT = 150;

/**
 * Upserts the ECB's rates as shared rows (`household_id` ''), one per day and currency, in one
 * transaction. These are public reference data, not a household's records, so they are written
 * here directly rather than through an op's audited transaction. Returns the rows written.
 */
export async function storeEcbDays(knex: Knex, days: readonly EcbDay[]): Promise<number> {
  const rows = days.flatMap((day) =>
    day.rates.map((r) => ({
      id: `ecb:${day.date}:${r.currency}`,
      household_id: ECB_HOUSEHOLD,
      date: day.date,
      currency: r.currency,
      per_eur: r.per_eur,
      source: 'ecb',
    })),
  );
  if (rows.length === 0) return 0;
  await knex.transaction(async (trx) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await trx('fx_rates')
        .insert(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict(['household_id', 'currency', 'date'])
        .merge(['per_eur', 'source']);
    }
  });
  // Every household's totals read these rows: what the read cache keeps is now old (another
  // process's cache: see Converter.load).
  changedEverywhere(knex);
  return rows.length;
}
