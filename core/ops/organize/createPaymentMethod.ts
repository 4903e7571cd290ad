import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { PaymentMethod, ShortName } from '../../domain/schemas.ts';
import { Last4, PaymentKind } from './_lib/fields.ts';
import { assertNameFree } from './_lib/names.ts';
import { paymentMethodView } from './_lib/views.ts';

export const createPaymentMethod = defineOp({
  name: 'create_payment_method',
  title: 'Add a payment method',
  description:
    'Adds a payment method, such as "Visa ending 4242", with its kind and optionally the last four digits (never a full card number). Names are unique regardless of case.',
  input: z.object({
    name: ShortName,
    kind: PaymentKind,
    last4: Last4.optional(),
  }),
  output: PaymentMethod,
  effect: 'write',
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    await assertNameFree(ctx, 'payment_methods', input.name);
    const row = await ctx.tx.insert('payment_methods', {
      id: ctx.newId('pm'),
      household_id: household(ctx).id,
      name: input.name,
      kind: input.kind,
      last4: input.last4 ?? null,
      created_at: nowIso(ctx),
    });
    return paymentMethodView(row, new Map());
  },
});
