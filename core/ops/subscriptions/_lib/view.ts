import { notFound } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { viewsByIds } from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import type { Subscription } from '../../../domain/schemas.ts';

/**
 * A subscription the actor may see, read inside the op's transaction as every surface sees it,
 * in one SQL statement; "not found" as requireSubscription says it. It locks nothing: an op that
 * changes the subscription has read it through requireSubscription first.
 */
export async function loadView(ctx: OpContext, id: string): Promise<Subscription> {
  const [view] = await viewsByIds(ctx.tx.trx, ctx.actor, household(ctx).id, [id], ctx.today);
  if (!view) throw notFound('subscription', id);
  return view;
}
