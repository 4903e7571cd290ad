import { z } from 'zod';

import { priceOn } from '../../domain/charges.ts';
import { defineOp } from '../../kernel/op.ts';
import { priceChangesBySubscription } from '../../store/repos/charges.ts';
import { requireSubscription } from '../shared/context.ts';
import { Charge, Id, IsoDate } from '../shared/schemas.ts';
import { recordCharge } from './record.ts';

export const skipCharge = defineOp({
  name: 'skip_charge',
  title: 'Skip a charge',
  description:
    "Records that a subscription's charge due on a date was not taken (a free month, a skipped delivery). It no longer counts in totals.",
  input: z.object({ subscription_id: Id, due_date: IsoDate }),
  output: Charge,
  effect: 'write',
  scope: 'write',
  idempotent: true,
  summarize: (_input, output) => ({
    key: 'activity.skip_charge',
    params: { name: output.subscription_name, date: output.due_date },
  }),
  async run(ctx, input) {
    const sub = await requireSubscription(ctx, input.subscription_id);
    const changes = (await priceChangesBySubscription(ctx.tx.trx, [sub.id])).get(sub.id) ?? [];
    const price = priceOn(input.due_date, sub.amount_minor, changes);
    return recordCharge(ctx, sub, input.due_date, 'skipped', null, sub.currency, price);
  },
});
