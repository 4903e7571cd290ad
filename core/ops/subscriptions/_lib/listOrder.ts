import type { OpContext } from '../../../kernel/op.ts';
import {
  type InsightRow,
  type SubscriptionRow,
  statusOn,
} from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import { monthlyCostOrder } from '../../shared/rates.ts';
import {
  householdRows,
  modelRead,
  nextChargeKey,
  nextCharges,
  visibleTo,
} from '../../shared/readModel.ts';

/** The orders list_subscriptions takes from the household's read model (every sort but created_at). */
export type ModelSort = 'name' | 'next_charge_date' | 'monthly_cost';

/** What a list from the read model keeps and which page it returns (list_subscriptions's input). */
export interface ModelQuery {
  sort: ModelSort;
  statuses?: ReadonlyArray<SubscriptionRow['status']> | undefined;
  category_id?: string | undefined;
  payment_method_id?: string | undefined;
  member_id?: string | undefined;
  /** The subscriptions with the tag asked for, when one is. */
  tagged?: ReadonlySet<string> | undefined;
  due_from?: string | undefined;
  due_to?: string | undefined;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * The household's subscriptions in one ascending order, ties by id, with each row's group: rows
 * that compare equal by the sort's key share a group (numbers grow along the list), so the
 * descending order reverses the groups and keeps each group's ids ascending, as the list's tie
 * rule says.
 */
interface Ordered {
  rows: readonly InsightRow[];
  groups: readonly number[];
}

const collators = new Map<string, Intl.Collator>();

/** Names compared as the household's language reads them, case ignored, numbers by value. */
export function nameCollator(locale: string): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    collator = new Intl.Collator(locale, { sensitivity: 'accent', numeric: true });
    collators.set(locale, collator);
  }
  return collator;
}

/** The currencies `rows` are priced in, once each. */
export function currenciesOf(rows: ReadonlyArray<{ currency: string }>): Set<string> {
  return new Set(rows.map((row) => row.currency));
}

/** `rows` sorted by `compare` then id, grouped by `compare` (see Ordered). */
function ordered(
  rows: readonly InsightRow[],
  compare: (a: InsightRow, b: InsightRow) => number,
): Ordered {
  const sorted = [...rows].sort((a, b) => compare(a, b) || (a.id < b.id ? -1 : 1));
  const groups: number[] = [];
  let group = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    const row = sorted[i];
    const previous = sorted[i - 1];
    if (row && previous && compare(previous, row) !== 0) group += 1;
    groups.push(group);
  }
  return { rows: sorted, groups };
}

/**
 * The household's rows in the ascending order of `sort`, for the day, kept in the read model (so
 * the names are compared once per change, not per call): by name with the household language's
 * collator, by today's monthly cost, or by next charge (none last).
 */
function orderOf(ctx: OpContext, sort: ModelSort): Promise<Ordered> {
  switch (sort) {
    case 'name': {
      // The language is part of the slot: a household that changes it is a change anyway.
      const names = nameCollator(household(ctx).locale);
      return modelRead(ctx, `list_order:name:${household(ctx).locale}`, async () =>
        ordered(await householdRows(ctx), (a, b) => names.compare(a.name, b.name)),
      );
    }
    case 'monthly_cost':
      // householdRows holds today's price, the price the SQL path orders by (PRICE_NOW_SQL),
      // compared in the household currency at today's rates: the rates used name the slot.
      return (async () => {
        const rows = await householdRows(ctx);
        const { compare, rates } = await monthlyCostOrder(ctx, currenciesOf(rows));
        return modelRead(ctx, `list_order:monthly_cost:${rates}`, () =>
          Promise.resolve(ordered(rows, compare)),
        );
      })();
    case 'next_charge_date':
      return modelRead(ctx, 'list_order:next_charge', async () => {
        const { next, byDateThenId } = await nextCharges(ctx);
        const key = (row: InsightRow): string => nextChargeKey(next.get(row.id) ?? null);
        return ordered(byDateThenId, (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      });
    default: {
      const unreachable: never = sort;
      return unreachable;
    }
  }
}

/**
 * The ids of one page of the subscriptions the actor sees, in the query's order (ties by id
 * ascending either way), and how many match: read from the household's read model, so a page
 * costs one pass over ids and no subscription row, name comparison or series per call. The same
 * filters and the same privacy rule as the query it stands for (visibleSubscriptions,
 * whereStatusOn: the status as it is today).
 */
export async function pageFromModel(
  ctx: OpContext,
  query: ModelQuery,
): Promise<{ total: number; ids: string[] }> {
  const { rows, groups } = await orderOf(ctx, query.sort);
  const byDue = query.due_from !== undefined || query.due_to !== undefined;
  const next = byDue ? (await nextCharges(ctx)).next : null;
  const today = ctx.today;
  const matched: Array<{ id: string; group: number }> = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i];
    if (!row || !visibleTo(ctx.actor, row)) continue;
    if (query.statuses && !query.statuses.includes(statusOn(row, today))) continue;
    if (query.category_id !== undefined && row.category_id !== query.category_id) continue;
    if (query.payment_method_id !== undefined && row.payment_method_id !== query.payment_method_id)
      continue;
    if (query.member_id !== undefined && row.member_id !== query.member_id) continue;
    if (query.tagged && !query.tagged.has(row.id)) continue;
    if (next) {
      const date = next.get(row.id) ?? null;
      if (date === null) continue;
      if (query.due_from !== undefined && date < query.due_from) continue;
      if (query.due_to !== undefined && date > query.due_to) continue;
    }
    matched.push({ id: row.id, group: groups[i] ?? 0 });
  }
  const page =
    query.order === 'asc'
      ? matched.slice(query.offset, query.offset + query.limit)
      : descending(matched, query.offset + query.limit).slice(
          query.offset,
          query.offset + query.limit,
        );
  return { total: matched.length, ids: page.map((m) => m.id) };
}

/**
 * The first `count` of the descending order: the last groups first, each group's ids still
 * ascending (the list's tie rule).
 */
function descending<T extends { group: number }>(ascending: readonly T[], count: number): T[] {
  const out: T[] = [];
  let end = ascending.length;
  while (end > 0 && out.length < count) {
    let start = end - 1;
    const group = ascending[start]?.group;
    while (start > 0 && ascending[start - 1]?.group === group) start -= 1;
    for (let i = start; i < end; i += 1) {
      const item = ascending[i];
      if (item) out.push(item);
    }
    end = start;
  }
  return out;
}
