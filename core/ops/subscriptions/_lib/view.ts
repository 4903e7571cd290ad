import type { OpContext } from '../../../kernel/op.ts';
import { subscriptionViews } from '../../../store/repos/subscriptions.ts';
import { requireSubscription } from '../../shared/context.ts';
import type { Subscription } from '../../../domain/schemas.ts';

/** Re-reads a subscription inside the op's transaction and returns it as every surface sees it. */
export async function loadView(ctx: OpContext, id: string): Promise<Subscription> {
  const row = await requireSubscription(ctx, id);
  const views = await subscriptionViews(ctx.tx.trx, [row], ctx.today);
  const view = views[0];
  if (!view) throw new Error(`subscription ${id} vanished inside its transaction`);
  return view;
}
