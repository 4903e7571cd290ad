import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { PaymentMethod } from '../../domain/schemas.ts';
import { countsBy, householdRows, paymentMethodView } from './_lib/views.ts';

export const listPaymentMethods = defineOp({
  name: 'list_payment_methods',
  title: 'List payment methods',
  description:
    "Lists the household's payment methods with their kind, last four digits when known and how many subscriptions you can see use each.",
  input: z.object({}),
  output: z.object({ items: z.array(PaymentMethod) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const rows = await householdRows(ctx, 'payment_methods');
    const counts = await countsBy(ctx, 'payment_method_id');
    return { items: rows.map((row) => paymentMethodView(row, counts)) };
  },
});
