import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { requireOwned } from '../shared/context.ts';
import { Id, PaymentMethod, ShortName } from '../../domain/schemas.ts';
import { Last4, PaymentKind } from './_lib/fields.ts';
import { assertNameFree } from './_lib/names.ts';
import { applyPatch } from './_lib/patch.ts';
import { loadPaymentMethod } from './_lib/views.ts';

export const updatePaymentMethod = defineOp({
  name: 'update_payment_method',
  title: 'Change a payment method',
  description:
    'Renames a payment method or changes its kind or last four digits. A name another payment method has is refused.',
  input: z.object({
    id: Id,
    name: ShortName.optional(),
    kind: PaymentKind.optional(),
    last4: Last4.nullable().optional(),
  }),
  output: PaymentMethod,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const current = await requireOwned<Row>(ctx, 'payment_methods', 'payment_method', input.id, {
      forUpdate: true,
    });
    if (input.name !== undefined)
      await assertNameFree(ctx, 'payment_methods', input.name, input.id);
    const row = await applyPatch(ctx, 'payment_methods', current, {
      name: input.name,
      kind: input.kind,
      last4: input.last4,
    });
    return loadPaymentMethod(ctx, row);
  },
});
