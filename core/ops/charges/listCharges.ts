import { z } from 'zod';

import { daysBetween } from '../../domain/dates.ts';
import { defineOp } from '../../kernel/op.ts';
import { chargesBetween } from '../../store/repos/charges.ts';
import { visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import { fieldError, household, requireSubscription } from '../shared/context.ts';
import { Charge, Id, IsoDate } from '../../domain/schemas.ts';

export const listCharges = defineOp({
  name: 'list_charges',
  title: 'List charges',
  description:
    'Lists the charges between two dates (at most 3 years apart): expected by each series, paid (with the actual amount) or skipped.',
  input: z.object({
    from: IsoDate,
    to: IsoDate,
    subscription_id: Id.optional(),
    status: z.array(z.enum(['expected', 'paid', 'skipped'])).optional(),
  }),
  output: z.object({ items: z.array(Charge) }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    if (input.to < input.from) throw fieldError(ctx, 'to', 'errors.input.range_order');
    if (daysBetween(input.from, input.to) > 1100)
      throw fieldError(ctx, 'to', 'errors.input.range_too_long', { days: 1100 });
    // An unknown (or hidden) subscription is "not found", not an empty list.
    if (input.subscription_id) await requireSubscription(ctx, input.subscription_id);
    const q = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id);
    if (input.subscription_id) q.andWhere('subscriptions.id', input.subscription_id);
    const subs = await q.select('subscriptions.*');
    const items = await chargesBetween(ctx.tx.trx, subs, input.from, input.to);
    return { items: input.status ? items.filter((c) => input.status?.includes(c.status)) : items };
  },
});
