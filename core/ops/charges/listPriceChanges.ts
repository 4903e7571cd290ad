import { z } from 'zod';

import { formatAmount } from '../../domain/money.ts';
import { defineOp } from '../../kernel/op.ts';
import { priceChangesBySubscription } from '../../store/repos/charges.ts';
import { visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import { household, requireSubscription } from '../shared/context.ts';
import { Id, IsoDate } from '../../domain/schemas.ts';

export const PriceChange = z.object({
  id: Id,
  subscription_id: Id,
  subscription_name: z.string(),
  effective_date: z.string(),
  old_amount: z.string(),
  new_amount: z.string(),
  currency: z.string(),
  change_percent: z.string().describe('Relative change, such as "12.5" or "-10".'),
});

export const listPriceChanges = defineOp({
  name: 'list_price_changes',
  title: 'List price changes',
  description:
    'Lists the recorded price changes, newest first: for one subscription, or all since a date.',
  input: z.object({ subscription_id: Id.optional(), since: IsoDate.optional() }),
  output: z.object({ items: z.array(PriceChange) }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    // An unknown (or hidden) subscription is "not found", not an empty list.
    if (input.subscription_id) await requireSubscription(ctx, input.subscription_id);
    const q = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id);
    if (input.subscription_id) q.andWhere('subscriptions.id', input.subscription_id);
    const subs = await q.select('subscriptions.*');
    const names = new Map(subs.map((s) => [s.id, s.name]));
    const grouped = await priceChangesBySubscription(
      ctx.tx.trx,
      subs.map((s) => s.id),
    );
    const items = [...grouped.values()]
      .flat()
      .filter((c) => !input.since || c.effective_date >= input.since)
      .sort((a, b) =>
        a.effective_date > b.effective_date
          ? -1
          : a.effective_date < b.effective_date
            ? 1
            : b.created_at.localeCompare(a.created_at),
      )
      .map((c) => ({
        id: c.id,
        subscription_id: c.subscription_id,
        subscription_name: names.get(c.subscription_id) ?? '',
        effective_date: c.effective_date,
        old_amount: formatAmount(c.old_amount_minor, c.currency),
        new_amount: formatAmount(c.new_amount_minor, c.currency),
        currency: c.currency,
        change_percent:
          c.old_amount_minor === 0
            ? '0'
            : String(
                Math.round(
                  ((c.new_amount_minor - c.old_amount_minor) / c.old_amount_minor) * 1000,
                ) / 10,
              ),
      }));
    return { items };
  },
});
