import type { OpContext } from '../../kernel/op.ts';
import { cachedRead } from '../../kernel/readCache.ts';
import { localeOrder } from '../../domain/text.ts';
import {
  atTodaysPrice,
  type InsightRow,
  nextChargeDate,
  type Viewer,
  visibleSubscriptions,
} from '../../store/repos/subscriptions.ts';
import { household } from './context.ts';

/**
 * The household's read model, shared by the insight ops and list_subscriptions: every
 * subscription row at today's price (19 columns), and what is derived from the rows alone for the
 * day (the name order, each next charge and the orders by next charge). Kept in the read cache
 * (core/kernel/readCache.ts) until a change to the household or the day turns, so reads of an
 * unchanged household read no subscription row again. Entries hold every subscription of the
 * household (the system's view): each caller keeps what its actor may see (`visibleTo`).
 */

const INSIGHT_COLUMNS: ReadonlyArray<keyof InsightRow> = [
  'id',
  'household_id',
  'member_id',
  'name',
  'vendor',
  'amount_minor',
  'currency',
  'cycle_unit',
  'cycle_every',
  'first_charge_date',
  'status',
  'trial_ends_on',
  'paused_on',
  'cancelled_on',
  'contract_ends_on',
  'notice_days',
  'category_id',
  'payment_method_id',
  'private',
];

const SYSTEM_VIEWER: Viewer = { kind: 'system', memberId: null };

/**
 * The household's entry in `slot` for the day, through the read cache, sharing the call's one
 * freshness check (`ctx.fresh`): every part of the read model is read through here.
 */
export function modelRead<T>(ctx: OpContext, slot: string, build: () => Promise<T>): Promise<T> {
  return cachedRead(ctx.tx.trx, household(ctx).id, slot, ctx.today, build, { fresh: ctx.fresh });
}

/**
 * The rows one op call read, by its transaction: where the cache does not serve (PostgreSQL
 * without a listening bus, a write transaction) the name order and the visible rows of one call
 * still share one query, from one snapshot.
 */
const rowsOfCall = new WeakMap<object, Promise<readonly InsightRow[]>>();

/** Every subscription row of the household at today's price, by name then id as the database orders them. */
export function householdRows(ctx: OpContext): Promise<readonly InsightRow[]> {
  const known = rowsOfCall.get(ctx.tx);
  if (known) return known;
  const rows = readHouseholdRows(ctx);
  rowsOfCall.set(ctx.tx, rows);
  return rows;
}

function readHouseholdRows(ctx: OpContext): Promise<readonly InsightRow[]> {
  const householdId = household(ctx).id;
  return modelRead(ctx, 'rows', async () => {
    const rows = (await visibleSubscriptions(ctx.tx.trx, SYSTEM_VIEWER, householdId)
      .orderBy('subscriptions.name')
      .orderBy('subscriptions.id')
      .select(INSIGHT_COLUMNS.map((c) => `subscriptions.${c}`))) as InsightRow[];
    return atTodaysPrice(ctx.tx.trx, rows, ctx.today);
  });
}

/**
 * Each subscription's rank by name then id as people sort them (the cached collator), kept in the
 * read model beside the rows: the insight ops order thousands of charges by it without comparing
 * names again.
 */
export function nameOrder(ctx: OpContext): Promise<ReadonlyMap<string, number>> {
  return modelRead(ctx, 'name_order', async () => {
    const sorted = [...(await householdRows(ctx))].sort(
      (a, b) => localeOrder(a.name, b.name) || localeOrder(a.id, b.id),
    );
    return new Map(sorted.map((row, i) => [row.id, i]));
  });
}

/** What visibleSubscriptions keeps, for rows already read (the same rule, in JavaScript). */
export function visibleTo(viewer: Viewer, row: Pick<InsightRow, 'private' | 'member_id'>): boolean {
  if (Number(row.private) === 0) return true;
  if (viewer.audience === 'shared') return false;
  if (viewer.kind === 'system' && viewer.memberId === null) return true;
  return row.member_id === viewer.memberId;
}

/** Every subscription's next charge today, and the household's rows in two orders by it. */
export interface NextCharges {
  /** The next charge date of each subscription (nextChargeDate), null when none is coming. */
  next: ReadonlyMap<string, string | null>;
  /** By next charge (none last), ties by id: list_subscriptions's order by next charge. */
  byDateThenId: readonly InsightRow[];
  /** By next charge (none last), ties by name then id (`nameOrder`): the briefing's order. */
  byDateThenName: readonly InsightRow[];
}

/** A next charge as it sorts: a subscription with none comes after every date. */
export function nextChargeKey(next: string | null): string {
  return next ?? '9999';
}

/** The next charges of the household's subscriptions and the orders by them, for the day. */
export function nextCharges(ctx: OpContext): Promise<NextCharges> {
  return modelRead(ctx, 'next_charges', async () => {
    const rows = await householdRows(ctx);
    const rank = await nameOrder(ctx);
    const keys = new Map<string, string>();
    const next = new Map<string, string | null>();
    for (const row of rows) {
      const date = nextChargeDate(row, ctx.today);
      next.set(row.id, date);
      keys.set(row.id, nextChargeKey(date));
    }
    const key = (row: InsightRow): string => keys.get(row.id) ?? '9999';
    const byKey = (a: InsightRow, b: InsightRow): number => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    };
    return {
      next,
      byDateThenId: [...rows].sort((a, b) => byKey(a, b) || (a.id < b.id ? -1 : 1)),
      byDateThenName: [...rows].sort(
        (a, b) => byKey(a, b) || (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0),
      ),
    };
  });
}
