import type { OpContext } from '../../../kernel/op.ts';
import { type SubscriptionRow, statusOn } from '../../../store/repos/subscriptions.ts';
import { nextChargeKey, nextCharges, visibleTo } from '../../shared/readModel.ts';

/** What a list by next charge keeps and which page it returns (list_subscriptions's input). */
export interface NextChargeQuery {
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
 * The ids of one page of the subscriptions the actor sees, ordered by next charge (none last,
 * or first when descending), ties by id ascending either way, and how many match: read from the
 * household's read model (each next charge derived once for the day, in that order), so a page
 * costs one pass over ids and no subscription row or series per call. The same filters and the
 * same privacy rule as the query it replaces (visibleSubscriptions, whereStatusOn: the status as
 * it is today).
 */
export async function pageByNextCharge(
  ctx: OpContext,
  query: NextChargeQuery,
): Promise<{ total: number; ids: string[] }> {
  const { next, byDateThenId } = await nextCharges(ctx);
  const today = ctx.today;
  const matched: Array<{ id: string; key: string }> = [];
  for (const row of byDateThenId) {
    if (!visibleTo(ctx.actor, row)) continue;
    if (query.statuses && !query.statuses.includes(statusOn(row, today))) continue;
    if (query.category_id !== undefined && row.category_id !== query.category_id) continue;
    if (query.payment_method_id !== undefined && row.payment_method_id !== query.payment_method_id)
      continue;
    if (query.member_id !== undefined && row.member_id !== query.member_id) continue;
    if (query.tagged && !query.tagged.has(row.id)) continue;
    const date = next.get(row.id) ?? null;
    if (query.due_from !== undefined || query.due_to !== undefined) {
      if (date === null) continue;
      if (query.due_from !== undefined && date < query.due_from) continue;
      if (query.due_to !== undefined && date > query.due_to) continue;
    }
    matched.push({ id: row.id, key: nextChargeKey(date) });
  }
  const ordered = query.order === 'asc' ? matched : descending(matched);
  return {
    total: matched.length,
    ids: ordered.slice(query.offset, query.offset + query.limit).map((m) => m.id),
  };
}

/** The latest dates first, each date's subscriptions still by id ascending (the list's tie rule). */
function descending<T extends { key: string }>(ascending: readonly T[]): T[] {
  const out: T[] = [];
  let end = ascending.length;
  while (end > 0) {
    let start = end - 1;
    const key = ascending[start]?.key;
    while (start > 0 && ascending[start - 1]?.key === key) start -= 1;
    for (let i = start; i < end; i += 1) {
      const item = ascending[i];
      if (item) out.push(item);
    }
    end = start;
  }
  return out;
}
