import type { Knex } from 'knex';

import type { OpContext } from '../../../kernel/op.ts';
import {
  type InsightRow,
  PRICE_NOW_SQL,
  type SubscriptionRow,
  visibleSubscriptions,
} from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import { householdRows, visibleTo } from '../../shared/readModel.ts';
import type { NamedRow } from '../../../store/repos/rows.ts';
import { groupBy } from '../../../domain/groupBy.ts';

export type { InsightRow };
/** The read model's name order (core/ops/shared/readModel.ts), for the insight ops. */
export { nameOrder } from '../../shared/readModel.ts';

/** Statuses that cost money now: paused and cancelled subscriptions are not charged. */
export const RUNNING: ReadonlyArray<SubscriptionRow['status']> = ['active', 'trial'];

/**
 * Keeps the subscriptions that cost something today: active or in a trial, or cancelled from a
 * day still to come (cancelled for the end of the month, it is paid until then; cancelled today,
 * it costs nothing today: `runsOn` in core/domain/charges.ts, written here in SQL).
 */
function running<Q extends Knex.QueryBuilder>(q: Q, today: string): Q {
  return q.where((w) =>
    w
      .whereIn('subscriptions.status', [...RUNNING])
      .orWhere((c) =>
        c
          .where('subscriptions.status', 'cancelled')
          .andWhere('subscriptions.cancelled_on', '>', today),
      ),
  ) as Q;
}

/** The columns a cost needs. */
export type CostRow = Pick<
  SubscriptionRow,
  | 'id'
  | 'member_id'
  | 'amount_minor'
  | 'currency'
  | 'cycle_unit'
  | 'cycle_every'
  | 'category_id'
  | 'payment_method_id'
>;

const COST_COLUMNS = [
  'id',
  'member_id',
  'amount_minor',
  'currency',
  'cycle_unit',
  'cycle_every',
  'category_id',
  'payment_method_id',
].map((c) => `subscriptions.${c}`);

/** The visible running subscriptions in these currencies, as the rows a cost needs. */
export async function runningCostRowsIn(
  ctx: OpContext,
  currencies: readonly string[],
): Promise<CostRow[]> {
  if (currencies.length === 0) return [];
  return (await running(visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id), ctx.today)
    .whereIn('subscriptions.currency', [...currencies])
    .select([
      ...COST_COLUMNS.filter((c) => c !== 'subscriptions.amount_minor'),
      ctx.tx.trx.raw(`${PRICE_NOW_SQL} as amount_minor`, [ctx.today]),
    ])) as CostRow[];
}

/** Whole visible subscriptions (optionally only some statuses; RUNNING as `running` says), by name. */
export async function fullRows(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<InsightRow[]> {
  const wanted =
    statuses === RUNNING
      ? (row: InsightRow) =>
          RUNNING.includes(row.status) ||
          (row.status === 'cancelled' && row.cancelled_on !== null && row.cancelled_on > ctx.today)
      : statuses
        ? (row: InsightRow) => statuses.includes(row.status)
        : () => true;
  return (await householdRows(ctx)).filter((row) => visibleTo(ctx.actor, row) && wanted(row));
}

/** Running costs summed in the database per group key and per currency and cycle (the monthly factor). */
export interface CostSum {
  /** The group: a category, payment method, member or tag id, or '' for none. */
  key: string;
  currency: string;
  cycle_unit: SubscriptionRow['cycle_unit'];
  cycle_every: number;
  /** Summed price per cycle in minor units. */
  amount: number;
  /** Subscriptions in the sum. */
  count: number;
}

export type CostGroup = 'none' | 'category' | 'payment_method' | 'member' | 'tag';

const GROUP_COLUMN = {
  none: null,
  category: 'subscriptions.category_id',
  payment_method: 'subscriptions.payment_method_id',
  member: 'subscriptions.member_id',
  tag: 'subscription_tags.tag_id',
} as const satisfies Record<CostGroup, string | null>;

/**
 * The running (active or trial) subscriptions' prices summed per group, currency and cycle: a
 * few dozen rows however many subscriptions there are, so totals never carry every row into
 * JavaScript. A subscription counts under each of its tags, and under '' without any.
 */
export async function runningCostSums(ctx: OpContext, by: CostGroup): Promise<CostSum[]> {
  const q = running(visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id), ctx.today);
  if (by === 'tag')
    q.leftJoin('subscription_tags', 'subscription_tags.subscription_id', 'subscriptions.id');
  const column = GROUP_COLUMN[by];
  const cycle = ['subscriptions.currency', 'subscriptions.cycle_unit', 'subscriptions.cycle_every'];
  const rows = (await q
    .groupBy(column ? [column, ...cycle] : cycle)
    .select(column ? [`${column} as key`, ...cycle] : cycle)
    .select(ctx.tx.trx.raw(`sum(${PRICE_NOW_SQL}) as amount`, [ctx.today]))
    .count({ count: '*' })) as Array<
    Omit<CostSum, 'key' | 'amount' | 'count'> & {
      key?: string | null;
      amount: number | string;
      count: number | string;
    }
  >;
  return rows.map((r) => ({
    key: r.key ?? '',
    currency: r.currency,
    cycle_unit: r.cycle_unit,
    cycle_every: Number(r.cycle_every),
    amount: Number(r.amount),
    count: Number(r.count),
  }));
}

/**
 * What each member pays of the running subscriptions, summed in the database per payer, currency
 * and cycle: their share (basis points) of each subscription with shares, all of each one without.
 */
export async function runningShareSums(ctx: OpContext): Promise<CostSum[]> {
  const payer = 'coalesce(subscription_shares.member_id, subscriptions.member_id)';
  const rows = (await running(
    visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id),
    ctx.today,
  )
    .leftJoin('subscription_shares', 'subscription_shares.subscription_id', 'subscriptions.id')
    .groupByRaw(
      `${payer}, subscriptions.currency, subscriptions.cycle_unit, subscriptions.cycle_every`,
    )
    .select(
      ctx.tx.trx.raw(`${payer} as ??`, ['key']),
      'subscriptions.currency',
      'subscriptions.cycle_unit',
      'subscriptions.cycle_every',
      ctx.tx.trx.raw(
        `sum(cast(${PRICE_NOW_SQL} as bigint) * coalesce(subscription_shares.share_bp, 10000)) as ??`,
        [ctx.today, 'amount_bp'],
      ),
    )
    .count({ count: '*' })) as Array<
    Omit<CostSum, 'amount' | 'count'> & { amount_bp: number | string; count: number | string }
  >;
  return rows.map((r) => ({
    key: r.key,
    currency: r.currency,
    cycle_unit: r.cycle_unit,
    cycle_every: Number(r.cycle_every),
    amount: Number(r.amount_bp) / 10_000,
    count: Number(r.count),
  }));
}

export interface ShareRow {
  subscription_id: string;
  member_id: string;
  share_bp: number;
}

/** Cost shares of the visible subscriptions, by subscription id, in one joined query. */
export async function sharesBySubscription(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<Map<string, ShareRow[]>> {
  const q = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id).join(
    'subscription_shares',
    'subscription_shares.subscription_id',
    'subscriptions.id',
  );
  if (statuses) q.whereIn('subscriptions.status', [...statuses]);
  const rows = (await q.select(
    'subscription_shares.subscription_id',
    'subscription_shares.member_id',
    'subscription_shares.share_bp',
  )) as ShareRow[];
  return groupBy(rows, (r) => r.subscription_id);
}

/** Tag ids of the visible subscriptions, by subscription id, in one joined query. */
export async function tagsBySubscription(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<Map<string, string[]>> {
  const q = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id).join(
    'subscription_tags',
    'subscription_tags.subscription_id',
    'subscriptions.id',
  );
  if (statuses) q.whereIn('subscriptions.status', [...statuses]);
  const rows = (await q.select(
    'subscription_tags.subscription_id',
    'subscription_tags.tag_id',
  )) as Array<{ subscription_id: string; tag_id: string }>;
  const out = new Map<string, string[]>();
  for (const [id, list] of groupBy(rows, (r) => r.subscription_id))
    out.set(
      id,
      list.map((r) => r.tag_id),
    );
  return out;
}

/** Names of the household's categories, payment methods, tags or members, by id. */
export async function namesOf(
  ctx: OpContext,
  table: 'categories' | 'payment_methods' | 'tags' | 'members',
): Promise<Map<string, string>> {
  const rows = await ctx.tx
    .from<NamedRow>(table)
    .where({ household_id: household(ctx).id })
    .select('id', 'name');
  return new Map(rows.map((r) => [r.id, r.name]));
}

export interface RecentPriceChange {
  id: string;
  subscription_id: string;
  effective_date: string;
  old_amount_minor: number;
  new_amount_minor: number;
  currency: string;
}

/** Price changes of the visible subscriptions (some statuses) effective in [from, to], in one joined query. */
export async function priceChangesBetween(
  ctx: OpContext,
  statuses: ReadonlyArray<SubscriptionRow['status']>,
  from: string,
  to: string,
): Promise<RecentPriceChange[]> {
  return (await visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id)
    .whereIn('subscriptions.status', [...statuses])
    .join('price_changes', 'price_changes.subscription_id', 'subscriptions.id')
    .whereBetween('price_changes.effective_date', [from, to])
    .orderBy('price_changes.effective_date')
    .orderBy('price_changes.id')
    .select(
      'price_changes.id',
      'price_changes.subscription_id',
      'price_changes.effective_date',
      'price_changes.old_amount_minor',
      'price_changes.new_amount_minor',
      'price_changes.currency',
    )) as RecentPriceChange[];
}
