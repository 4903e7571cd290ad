import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Id, Ref } from '../../domain/schemas.ts';
import { ReassignTo } from './_lib/fields.ts';
import { deletedSummary, deleteReassigning } from './_lib/reassign.ts';

export const deleteCategory = defineOp({
  name: 'delete_category',
  title: 'Delete a category',
  description:
    'Deletes a category. Its subscriptions are not deleted: they move to the category given in reassign_to, or, when reassign_to is null or left out, are left without a category. Returns how many of the subscriptions you can see were moved. Can be undone from the activity list.',
  input: z.object({
    id: Id.describe('The category to delete.'),
    reassign_to: ReassignTo,
  }),
  output: z.object({
    id: Id,
    name: z.string(),
    deleted: z.literal(true),
    reassigned_to: Ref.nullable().describe(
      'Where its subscriptions went; null: left without a category.',
    ),
    subscriptions_moved: z
      .int()
      .describe('Subscriptions (that you can see) moved or left without a category.'),
  }),
  effect: 'destructive',
  ...deletedSummary,
  async run(ctx, input) {
    return deleteReassigning(ctx, 'category', input.id, input.reassign_to ?? null);
  },
});
