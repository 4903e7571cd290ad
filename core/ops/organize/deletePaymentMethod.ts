import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Id, Ref } from '../../domain/schemas.ts';
import { ReassignTo } from './_lib/fields.ts';
import { deletedSummary, deleteReassigning } from './_lib/reassign.ts';

export const deletePaymentMethod = defineOp({
  name: 'delete_payment_method',
  title: 'Delete a payment method',
  description:
    'Deletes a payment method; its subscriptions move to reassign_to, or are left without one.',
  input: z.object({
    id: Id,
    reassign_to: ReassignTo,
  }),
  output: z.object({
    id: Id,
    name: z.string(),
    deleted: z.literal(true),
    reassigned_to: Ref.nullable().describe('Where its subscriptions went; null: nowhere.'),
    subscriptions_moved: z.int().describe('Only those you can see.'),
  }),
  effect: 'destructive',
  ...deletedSummary,
  async run(ctx, input) {
    return deleteReassigning(ctx, 'payment_method', input.id, input.reassign_to ?? null);
  },
});
