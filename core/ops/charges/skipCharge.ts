import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Charge, Id, IsoDate } from '../../domain/schemas.ts';
import { expectedPrice, recordCharge } from './_lib/record.ts';

export const skipCharge = defineOp({
  name: 'skip_charge',
  title: 'Skip a charge',
  description:
    'Records that a charge was not taken (a free month, a skipped delivery); it no longer counts in totals.',
  input: z.object({ subscription_id: Id, due_date: IsoDate }),
  output: Charge,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.subscription_name, date: output.due_date }),
  async run(ctx, input) {
    const sub = await requireSubscription(ctx, input.subscription_id);
    const price = await expectedPrice(ctx, sub, input.due_date);
    return recordCharge(ctx, sub, input.due_date, 'skipped', null, sub.currency, price);
  },
});
