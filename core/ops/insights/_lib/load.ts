import type { OpContext } from '../../../kernel/op.ts';
import {
  type InsightRow,
  type SubscriptionRow,
  visibleSubscriptions,
} from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import { householdRows, modelRead, visibleTo } from '../../shared/readModel.ts';
import type { NamedRow } from '../../../store/repos/rows.ts';
import { groupBy } from '../../../domain/groupBy.ts';

export type { InsightRow };
/** The read model's name order (core/ops/shared/readModel.ts), for the insight ops. */
export { nameOrder } from '../../shared/readModel.ts';

/** Statuses that cost money now: paused and cancelled subscriptions are not charged. */
export const RUNNING: ReadonlyArray<SubscriptionRow['status']> = ['active', 'trial'];

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

/** The visible running subscriptions in these currencies, as the rows a cost needs (today's price). */
export async function runningCostRowsIn(
  ctx: OpContext,
  currencies: readonly string[],
): Promise<CostRow[]> {
  if (currencies.length === 0) return [];
  const wanted = new Set(currencies);
  return (await runningRows(ctx)).filter((row) => wanted.has(row.currency));
}

/** The visible subscriptions that cost something today (`isRunning`), from the read model. */
async function runningRows(ctx: OpContext): Promise<InsightRow[]> {
  return (await householdRows(ctx)).filter(
    (row) => visibleTo(ctx.actor, row) && isRunning(row, ctx.today),
  );
}

/**
 * Whether a subscription costs something today: active or in a trial, or cancelled from a day still
 * to come (cancelled for the end of the month, it is paid until then; cancelled today, it costs
 * nothing today: `runsOn` in core/domain/charges.ts).
 */
function isRunning(row: Pick<InsightRow, 'status' | 'cancelled_on'>, today: string): boolean {
  return (
    RUNNING.includes(row.status) ||
    (row.status === 'cancelled' && row.cancelled_on !== null && row.cancelled_on > today)
  );
}

/** Whole visible subscriptions (optionally only some statuses; RUNNING as `isRunning` says), by name. */
export async function fullRows(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<InsightRow[]> {
  const wanted =
    statuses === RUNNING
      ? (row: InsightRow) => isRunning(row, ctx.today)
      : statuses
        ? (row: InsightRow) => statuses.includes(row.status)
        : () => true;
  return (await householdRows(ctx)).filter((row) => visibleTo(ctx.actor, row) && wanted(row));
}

/** Running costs summed per group key and per currency and cycle (the monthly factor). */
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

/**
 * The running (active or trial) subscriptions' prices summed per group, currency and cycle: a
 * few dozen sums however many subscriptions there are. Summed from the household's read model
 * (its rows at today's price, kept until a change: core/ops/shared/readModel.ts), so an unchanged
 * household's totals read no row again. A subscription counts under each of its tags, and under
 * '' without any.
 */
export function runningCostSums(ctx: OpContext, by: CostGroup): Promise<readonly CostSum[]> {
  return cachedSums(ctx, `cost_sums:${by}`, () => sumCosts(ctx, by));
}

async function sumCosts(ctx: OpContext, by: CostGroup): Promise<CostSum[]> {
  const rows = await runningRows(ctx);
  const tags = by === 'tag' ? await householdTags(ctx) : null;
  const sums = new CostSums();
  for (const row of rows) {
    const keys = groupKeysOf(row, by, tags);
    for (const key of keys) sums.add(key, row, row.amount_minor);
  }
  return sums.list();
}

/**
 * Each member's part of the running costs, per currency and cycle: a subscription's price split
 * by its shares (basis points), or all of it by its member when it has none. From the read model,
 * as `runningCostSums`.
 */
export function runningShareSums(ctx: OpContext): Promise<readonly CostSum[]> {
  return cachedSums(ctx, 'share_sums', () => sumShares(ctx));
}

async function sumShares(ctx: OpContext): Promise<CostSum[]> {
  const [rows, shares] = await Promise.all([runningRows(ctx), householdShares(ctx)]);
  const sums = new CostSums();
  for (const row of rows) {
    const split = shares.get(row.id);
    if (split === undefined || split.length === 0) sums.add(row.member_id, row, row.amount_minor);
    else
      for (const share of split)
        sums.add(share.member_id, row, (row.amount_minor * share.share_bp) / 10_000);
  }
  return sums.list();
}

/**
 * Sums kept in the read model for the day, per what the actor may see: everyone who sees the same
 * subscriptions (`visibleTo`: a shared audience, the whole household, or one member's own private
 * ones besides the rest) shares one entry.
 */
function cachedSums(
  ctx: OpContext,
  slot: string,
  build: () => Promise<CostSum[]>,
): Promise<readonly CostSum[]> {
  const viewer = ctx.actor;
  const sees =
    viewer.audience === 'shared'
      ? 'shared'
      : viewer.kind === 'system' && viewer.memberId === null
        ? 'all'
        : `member:${viewer.memberId ?? ''}`;
  return modelRead(ctx, `${slot}:${sees}`, build);
}

/** The keys a subscription counts under when grouped `by`: '' for "no category / method / tag". */
export function groupKeysOf(
  row: Pick<InsightRow, 'id' | 'category_id' | 'payment_method_id' | 'member_id'>,
  by: CostGroup,
  tags: ReadonlyMap<string, readonly string[]> | null,
): readonly string[] {
  switch (by) {
    case 'none':
      return [''];
    case 'category':
      return [row.category_id ?? ''];
    case 'payment_method':
      return [row.payment_method_id ?? ''];
    case 'member':
      return [row.member_id];
    case 'tag': {
      const list = tags?.get(row.id);
      return list && list.length > 0 ? list : [''];
    }
    default: {
      const unreachable: never = by;
      return unreachable;
    }
  }
}

/** Sums of prices per group key, currency and cycle, in the order first seen. */
class CostSums {
  private readonly sums = new Map<string, CostSum>();

  add(
    key: string,
    row: Pick<InsightRow, 'currency' | 'cycle_unit' | 'cycle_every'>,
    amount: number,
  ): void {
    const id = `${key}\u0000${row.currency}\u0000${row.cycle_unit}\u0000${row.cycle_every}`;
    const sum = this.sums.get(id);
    if (sum) {
      sum.amount += amount;
      sum.count += 1;
    } else
      this.sums.set(id, {
        key,
        currency: row.currency,
        cycle_unit: row.cycle_unit,
        cycle_every: Number(row.cycle_every),
        amount,
        count: 1,
      });
  }

  list(): CostSum[] {
    return [...this.sums.values()];
  }
}

export interface ShareRow {
  subscription_id: string;
  member_id: string;
  share_bp: number;
}

/**
 * Cost shares of the visible subscriptions (optionally only some statuses), by subscription id:
 * the household's shares from the read model, kept for the subscriptions visible here.
 */
export async function sharesBySubscription(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<Map<string, ShareRow[]>> {
  return keptFor(ctx, await householdShares(ctx), statuses);
}

/** Tag ids of the visible subscriptions (optionally only some statuses), by subscription id. */
export async function tagsBySubscription(
  ctx: OpContext,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<Map<string, string[]>> {
  return keptFor(ctx, await householdTags(ctx), statuses);
}

/** The entries of `bySubscription` whose subscription this actor sees (and has one of `statuses`). */
async function keptFor<T>(
  ctx: OpContext,
  bySubscription: ReadonlyMap<string, readonly T[]>,
  statuses?: ReadonlyArray<SubscriptionRow['status']>,
): Promise<Map<string, T[]>> {
  const out = new Map<string, T[]>();
  for (const row of await householdRows(ctx)) {
    if (!visibleTo(ctx.actor, row) || (statuses && !statuses.includes(row.status))) continue;
    const list = bySubscription.get(row.id);
    if (list !== undefined) out.set(row.id, [...list]);
  }
  return out;
}

/** Every cost share of the household's subscriptions, by subscription id (the read model's). */
function householdShares(ctx: OpContext): Promise<ReadonlyMap<string, readonly ShareRow[]>> {
  const householdId = household(ctx).id;
  return modelRead(ctx, 'shares', async () => {
    const rows = (await ctx.tx
      .trx('subscription_shares')
      .join('subscriptions', 'subscriptions.id', 'subscription_shares.subscription_id')
      .where('subscriptions.household_id', householdId)
      .orderBy(['subscription_shares.subscription_id', 'subscription_shares.member_id'])
      .select(
        'subscription_shares.subscription_id',
        'subscription_shares.member_id',
        'subscription_shares.share_bp',
      )) as ShareRow[];
    return groupBy(
      rows.map((r) => ({ ...r, share_bp: Number(r.share_bp) })),
      (r) => r.subscription_id,
    );
  });
}

/** Every tag id of the household's subscriptions, by subscription id (the read model's). */
function householdTags(ctx: OpContext): Promise<ReadonlyMap<string, readonly string[]>> {
  const householdId = household(ctx).id;
  return modelRead(ctx, 'tags', async () => {
    const rows = (await ctx.tx
      .trx('subscription_tags')
      .join('subscriptions', 'subscriptions.id', 'subscription_tags.subscription_id')
      .where('subscriptions.household_id', householdId)
      .orderBy(['subscription_tags.subscription_id', 'subscription_tags.tag_id'])
      .select('subscription_tags.subscription_id', 'subscription_tags.tag_id')) as Array<{
      subscription_id: string;
      tag_id: string;
    }>;
    const out = new Map<string, string[]>();
    for (const [id, list] of groupBy(rows, (r) => r.subscription_id))
      out.set(
        id,
        list.map((r) => r.tag_id),
      );
    return out;
  });
}

/** Names of the household's categories, payment methods, tags or members, by id. */
export async function namesOf(
  ctx: OpContext,
  table: 'categories' | 'payment_methods' | 'tags' | 'members',
): Promise<Map<string, string>> {
  const householdId = household(ctx).id;
  const names = await modelRead(ctx, `names:${table}`, async () => {
    const rows = await ctx.tx.trx
      .from<NamedRow>(table)
      .where({ household_id: householdId })
      .select('id', 'name');
    return rows.map((r) => [r.id, r.name] as const);
  });
  return new Map(names);
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
