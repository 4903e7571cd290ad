import type { TextParams } from '../../../i18n/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { visibleSubscriptions } from '../../../store/repos/subscriptions.ts';
import type { Row } from '../../../store/tracked.ts';
import { fieldError, household, nowIso, requireOwned } from '../../shared/context.ts';
import type { SubscriptionRow } from '../../../store/repos/subscriptions.ts';

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
  const all = await ctx.tx
    .from<SubscriptionRow>('subscriptions')
    .where({ household_id: hh })
    .whereIn(column, [...fromIds])
    .orderBy('id')
    .select('id');
  const visible = await visibleSubscriptions(ctx.tx.trx, ctx.actor, hh)
    .whereIn(`subscriptions.${column}`, [...fromIds])
    .select('subscriptions.id');
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

const DELETABLE = {
  category: { table: 'categories', column: 'category_id' },
  payment_method: { table: 'payment_methods', column: 'payment_method_id' },
} as const;

/** What delete_category and delete_payment_method return. */
export interface Deleted {
  id: string;
  name: string;
  deleted: true;
  reassigned_to: { id: string; name: string } | null;
  subscriptions_moved: number;
}

/**
 * Deletes a category or payment method, first moving its subscriptions to `reassignTo` (or
 * leaving them without one): the shared body of both delete ops.
 */
export async function deleteReassigning(
  ctx: OpContext,
  entity: keyof typeof DELETABLE,
  id: string,
  reassignTo: string | null,
): Promise<Deleted> {
  const { table, column } = DELETABLE[entity];
  const row = await requireOwned<Row>(ctx, table, entity, id, { forUpdate: true });
  let target: Row | null = null;
  if (reassignTo !== null) {
    if (reassignTo === id)
      throw fieldError(ctx, 'reassign_to', 'errors.organize.reassign_to_itself');
    target = await requireOwned<Row>(ctx, table, entity, reassignTo);
  }
  const moved = await reassignSubscriptions(ctx, column, [id], reassignTo);
  await ctx.tx.remove(table, id);
  return {
    id,
    name: String(row.name),
    deleted: true,
    reassigned_to: target ? { id: String(target.id), name: String(target.name) } : null,
    subscriptions_moved: moved,
  };
}

/** The activity line of a delete that may have moved subscriptions: its parameters and variant. */
export const deletedSummary = {
  summarize: (_input: unknown, output: Deleted): TextParams =>
    output.reassigned_to
      ? { name: output.name, count: output.subscriptions_moved, target: output.reassigned_to.name }
      : { name: output.name },
  summaryVariant: (_input: unknown, output: Deleted): string | null =>
    output.reassigned_to ? `moved${output.subscriptions_moved === 1 ? '_one' : ''}` : null,
};
