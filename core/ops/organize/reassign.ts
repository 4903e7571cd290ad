import type { OpContext } from '../../kernel/op.ts';
import { visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import { household, nowIso } from '../shared/context.ts';

/**
 * Points every subscription of the household that uses one of `fromIds` (in `column`) at `to`
 * (null = none), each write recorded so undo restores it. All of them move, other members'
 * private ones included, so no subscription is left pointing at a deleted row; the count returned
 * is only of those the actor may see, so it reveals nothing about private subscriptions.
 */
export async function reassignSubscriptions(
  ctx: OpContext,
  column: 'category_id' | 'payment_method_id',
  fromIds: readonly string[],
  to: string | null,
): Promise<number> {
  if (fromIds.length === 0) return 0;
  const hh = household(ctx).id;
  const all = (await ctx.tx
    .from('subscriptions')
    .where({ household_id: hh })
    .whereIn(column, [...fromIds])
    .orderBy('id')
    .select('id')) as Array<{ id: string }>;
  const visible = (await visibleSubscriptions(ctx.tx.trx, ctx.actor, hh)
    .whereIn(`subscriptions.${column}`, [...fromIds])
    .select('subscriptions.id')) as Array<{ id: string }>;
  for (const sub of all) {
    await ctx.tx.update('subscriptions', sub.id, { [column]: to, updated_at: nowIso(ctx) });
  }
  return visible.length;
}

/** Removes every link of a tag (other members' private subscriptions included); returns the visible ones. */
export async function unlinkTag(ctx: OpContext, tagId: string): Promise<number> {
  const hh = household(ctx).id;
  const visible = (await visibleSubscriptions(ctx.tx.trx, ctx.actor, hh)
    .join('subscription_tags', 'subscription_tags.subscription_id', 'subscriptions.id')
    .where('subscription_tags.tag_id', tagId)
    .select('subscriptions.id')) as Array<{ id: string }>;
  await ctx.tx.removeWhere('subscription_tags', { household_id: hh, tag_id: tagId });
  return visible.length;
}
