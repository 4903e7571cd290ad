import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Amount, Charge, Currency, Id, IsoDate } from '../../domain/schemas.ts';
import { markPaid } from './_lib/record.ts';

export const markChargePaid = defineOp({
  name: 'mark_charge_paid',
  title: 'Mark a charge paid',
  description:
    'Records a charge as paid with the amount actually charged (default: the expected price), also for variable bills. Marking again replaces the record.',
  input: z.object({
    subscription_id: Id,
    due_date: IsoDate.describe("The charge's date in the series."),
    amount: Amount.optional().describe(
      'What was actually charged; default: the price in effect that day.',
    ),
    currency: Currency.optional().describe("Default: the subscription's currency."),
  }),
  output: Charge,
  effect: 'write',
  financial: true,
  idempotent: true,
  summarize: (_input, output) => ({
    name: output.subscription_name,
    amount: output.amount,
    currency: output.currency,
    date: output.due_date,
  }),
  async run(ctx, input) {
    const sub = await requireSubscription(ctx, input.subscription_id);
    return markPaid(ctx, sub, input.due_date, input);
  },
});
