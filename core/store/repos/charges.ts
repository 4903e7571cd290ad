import type { Knex } from 'knex';

import { localeOrder } from '../../domain/text.ts';
import { expectedCharges, type PriceChangeInput } from '../../domain/charges.ts';
import { formatAmount } from '../../domain/money.ts';
import type { Charge } from '../../domain/schemas.ts';
import { chunked, cycleOf, type InsightRow } from './subscriptions.ts';

export interface ChargeRow {
  id: string;
  household_id: string;
  subscription_id: string;
  due_date: string;
  status: 'paid' | 'skipped';
  amount_minor: number | null;
  currency: string;
  note: string | null;
  recorded_at: string;
}

export interface PriceChangeRow extends PriceChangeInput {
  id: string;
  subscription_id: string;
  currency: string;
  created_at: string;
}

/** Price changes of these subscriptions, grouped by subscription id. */
export async function priceChangesBySubscription(
  db: Knex | Knex.Transaction,
  ids: string[],
): Promise<Map<string, PriceChangeRow[]>> {
  const rows = await chunked(
    ids,
    (part) =>
      db('price_changes').whereIn('subscription_id', part).orderBy('effective_date') as Promise<
        PriceChangeRow[]
      >,
  );
  return groupChanges(rows);
}

/** Above this many subscriptions, one range query over the household beats hundreds of id lists. */
const WIDE_QUERY_AT = 200;

function groupChanges(rows: PriceChangeRow[]): Map<string, PriceChangeRow[]> {
  const map = new Map<string, PriceChangeRow[]>();
  for (const row of rows) {
    const list = map.get(row.subscription_id);
    if (list) list.push(row);
    else map.set(row.subscription_id, [row]);
  }
  return map;
}

/**
 * Expected and recorded charges of the given subscriptions in [from, to], by date then name
 * (`order`, when given, is each subscription's rank by name: a read model's, which saves
 * comparing names with the collator for every pair of charges on one day).
 * A recorded charge replaces the expected one of the same date; recorded charges off the series
 * (the schedule changed after paying) are listed too.
 */
export async function chargesBetween(
  db: Knex | Knex.Transaction,
  subs: readonly InsightRow[],
  from: string,
  to: string,
  order?: ReadonlyMap<string, number>,
): Promise<Charge[]> {
  const ids = subs.map((s) => s.id);
  // Rows of subscriptions not asked for (a wide query returns the whole household's) are ignored below.
  const householdId = subs[0]?.household_id ?? '';
  const wide = subs.length > WIDE_QUERY_AT;
  const changes = wide
    ? groupChanges(
        (await db('price_changes')
          .where({ household_id: householdId })
          .orderBy('effective_date')) as PriceChangeRow[],
      )
    : await priceChangesBySubscription(db, ids);
  const recorded = wide
    ? ((await db('charges')
        .where({ household_id: householdId })
        .whereBetween('due_date', [from, to])) as ChargeRow[])
    : await chunked(
        ids,
        (part) =>
          db('charges')
            .whereIn('subscription_id', part)
            .whereBetween('due_date', [from, to]) as Promise<ChargeRow[]>,
      );
  const recordedByKey = new Map(recorded.map((c) => [`${c.subscription_id}|${c.due_date}`, c]));
  const out: Charge[] = [];
  for (const sub of subs) {
    // A fixed-shape object, not a spread of the row: this runs for every subscription.
    const series = expectedCharges(
      {
        amount_minor: sub.amount_minor,
        first_charge_date: sub.first_charge_date,
        cycle: cycleOf(sub),
        status: sub.status,
        trial_ends_on: sub.trial_ends_on,
        paused_on: sub.paused_on,
        cancelled_on: sub.cancelled_on,
      },
      changes.get(sub.id) ?? [],
      from,
      to,
    );
    for (const expected of series) {
      const key = `${sub.id}|${expected.due_date}`;
      const done = recordedByKey.get(key);
      recordedByKey.delete(key);
      out.push(
        done
          ? recordedView(done, sub, expected.amount_minor)
          : {
              id: null,
              subscription_id: sub.id,
              subscription_name: sub.name,
              due_date: expected.due_date,
              status: 'expected',
              amount: formatAmount(expected.amount_minor, sub.currency),
              currency: sub.currency,
            },
      );
    }
  }
  const names = new Map(subs.map((s) => [s.id, s]));
  for (const extra of recordedByKey.values()) {
    const sub = names.get(extra.subscription_id);
    if (sub) out.push(recordedView(extra, sub));
  }
  const byName = order
    ? (a: Charge, b: Charge) =>
        (order.get(a.subscription_id) ?? 0) - (order.get(b.subscription_id) ?? 0)
    : (a: Charge, b: Charge) => localeOrder(a.subscription_name, b.subscription_name);
  return out.sort((a, b) =>
    a.due_date < b.due_date ? -1 : a.due_date > b.due_date ? 1 : byName(a, b),
  );
}

/** A recorded charge; a skipped one shows the price that was not taken. */
function recordedView(row: ChargeRow, sub: InsightRow, expectedMinor?: number): Charge {
  return {
    id: row.id,
    subscription_id: sub.id,
    subscription_name: sub.name,
    due_date: row.due_date,
    status: row.status,
    amount: formatAmount(row.amount_minor ?? expectedMinor ?? sub.amount_minor, row.currency),
    currency: row.currency,
  };
}
