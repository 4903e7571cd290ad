import { z } from 'zod';

import type { ActivityText } from '../../i18n/activity.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { fieldError, requireOwned } from '../shared/context.ts';
import { Id, Ref } from '../shared/schemas.ts';
import { ReassignTo } from './fields.ts';
import { reassignSubscriptions } from './reassign.ts';

export const deletePaymentMethod = defineOp({
  name: 'delete_payment_method',
  title: 'Delete a payment method',
  description:
    'Deletes a payment method. Its subscriptions are not deleted: they move to the payment method given in reassign_to, or, when reassign_to is null or left out, are left without one. Returns how many of the subscriptions you can see were moved. Can be undone from the activity list.',
  input: z.object({
    id: Id.describe('The payment method to delete.'),
    reassign_to: ReassignTo,
  }),
  output: z.object({
    id: z.string(),
    name: z.string(),
    deleted: z.literal(true),
    reassigned_to: Ref.nullable().describe(
      'Where its subscriptions went; null: left without a payment method.',
    ),
    subscriptions_moved: z
      .int()
      .describe('Subscriptions (that you can see) moved or left without a payment method.'),
  }),
  effect: 'destructive',
  scope: 'write',
  summarize: (_input, output): ActivityText =>
    output.reassigned_to
      ? {
          key: `activity.delete_payment_method.moved${output.subscriptions_moved === 1 ? '_one' : ''}`,
          params: {
            name: output.name,
            count: output.subscriptions_moved,
            target: output.reassigned_to.name,
          },
        }
      : { key: 'activity.delete_payment_method', params: { name: output.name } },
  async run(ctx, input) {
    const method = await requireOwned<Row>(ctx, 'payment_methods', 'payment_method', input.id);
    const targetId = input.reassign_to ?? null;
    let target: Row | null = null;
    if (targetId !== null) {
      if (targetId === input.id)
        throw fieldError(ctx, 'reassign_to', 'errors.organize.reassign_to_itself');
      target = await requireOwned<Row>(ctx, 'payment_methods', 'payment_method', targetId);
    }
    const moved = await reassignSubscriptions(ctx, 'payment_method_id', [input.id], targetId);
    await ctx.tx.remove('payment_methods', input.id);
    return {
      id: input.id,
      name: String(method.name),
      deleted: true as const,
      reassigned_to: target ? { id: String(target.id), name: String(target.name) } : null,
      subscriptions_moved: moved,
    };
  },
});
