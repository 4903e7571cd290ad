import type { Knex } from 'knex';

import type { IsoDate } from '../../domain/dates.ts';
import { createRateBook, type FxRate, type RateBook, type RateSource } from '../../domain/fx.ts';

/** The `household_id` of the ECB's published rates, shared by every household. */
export const ECB_HOUSEHOLD = '';

/** An `fx_rates` row as stored. */
export interface FxRateRow {
  id: string;
  household_id: string;
  date: IsoDate;
  currency: string;
  per_eur: number;
  source: RateSource;
}

/** The union-all parts per query: SQLite allows at most 500 terms in a compound select. */
const PARTS_PER_QUERY = 100;

/**
 * The rates that can serve any date in [from, to] for these currencies, as the ECB's and this
 * household's manual rates: every rate inside the range plus, per source and currency, the newest
 * one before it. A fixed handful of indexed queries however many amounts will be converted.
 */
export async function loadRateBook(
  db: Knex | Knex.Transaction,
  householdId: string,
  currencies: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
): Promise<RateBook> {
  return createRateBook(await loadRates(db, householdId, currencies, from, to));
}

/** The rates `loadRateBook` makes its book of (for a caller that keeps them). */
export async function loadRates(
  db: Knex | Knex.Transaction,
  householdId: string,
  currencies: Iterable<string>,
  from: IsoDate,
  to: IsoDate,
): Promise<FxRate[]> {
  const wanted = [...new Set(currencies)].filter((c) => c !== 'EUR').sort();
  if (wanted.length === 0) return [];
  const owners = [ECB_HOUSEHOLD, householdId];
  const inside = (await db('fx_rates')
    .whereIn('household_id', owners)
    .whereIn('currency', wanted)
    .whereBetween('date', [from, to])
    .select('household_id', 'date', 'currency', 'per_eur', 'source')) as FxRateRow[];

  const pairs = owners.flatMap((owner) => wanted.map((currency) => ({ owner, currency })));
  const before: FxRateRow[] = [];
  for (let i = 0; i < pairs.length; i += PARTS_PER_QUERY) {
    const parts = pairs
      .slice(i, i + PARTS_PER_QUERY)
      .map(({ owner, currency }, n) =>
        db
          .select('*')
          .from(
            db('fx_rates')
              .where({ household_id: owner, currency })
              .andWhere('date', '<', from)
              .orderBy('date', 'desc')
              .limit(1)
              .select('household_id', 'date', 'currency', 'per_eur', 'source')
              .as(`p${n}`),
          ),
      );
    const [first, ...rest] = parts;
    if (!first) continue;
    before.push(...((await (rest.length > 0 ? first.unionAll(rest) : first)) as FxRateRow[]));
  }
  return [...before, ...inside].map(toRate);
}

function toRate(row: FxRateRow): FxRate {
  return {
    currency: row.currency,
    date: row.date,
    per_eur: Number(row.per_eur),
    source: row.source === 'manual' ? 'manual' : 'ecb',
  };
}

/** This household's manual rate for a currency on a date, if its owner set one. */
export async function manualRate(
  db: Knex | Knex.Transaction,
  householdId: string,
  currency: string,
  date: IsoDate,
): Promise<FxRateRow | null> {
  const row = (await db('fx_rates')
    .where({ household_id: householdId, currency, date })
    .first()) as FxRateRow | undefined;
  return row ?? null;
}

/** Currencies this household set a rate for by hand. */
export async function manualCurrencies(
  db: Knex | Knex.Transaction,
  householdId: string,
): Promise<string[]> {
  const rows = (await db('fx_rates')
    .where({ household_id: householdId })
    .distinct('currency')) as Array<{ currency: string }>;
  return rows.map((r) => r.currency);
}
