import { z } from 'zod';

import type { ActivityText } from '../../i18n/activity.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { fieldError, requireOwned } from '../shared/context.ts';
import { Id, Ref } from '../shared/schemas.ts';
import { ReassignTo } from './fields.ts';
import { reassignSubscriptions } from './reassign.ts';

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
    id: z.string(),
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
  scope: 'write',
  summarize: (_input, output): ActivityText =>
    output.reassigned_to
      ? {
          key: `activity.delete_category.moved${output.subscriptions_moved === 1 ? '_one' : ''}`,
          params: {
            name: output.name,
            count: output.subscriptions_moved,
            target: output.reassigned_to.name,
          },
        }
      : { key: 'activity.delete_category', params: { name: output.name } },
  async run(ctx, input) {
    const category = await requireOwned<Row>(ctx, 'categories', 'category', input.id);
    const targetId = input.reassign_to ?? null;
    let target: Row | null = null;
    if (targetId !== null) {
      if (targetId === input.id)
        throw fieldError(ctx, 'reassign_to', 'errors.organize.reassign_to_itself');
      target = await requireOwned<Row>(ctx, 'categories', 'category', targetId);
    }
    const moved = await reassignSubscriptions(ctx, 'category_id', [input.id], targetId);
    await ctx.tx.remove('categories', input.id);
    return {
      id: input.id,
      name: String(category.name),
      deleted: true as const,
      reassigned_to: target ? { id: String(target.id), name: String(target.name) } : null,
      subscriptions_moved: moved,
    };
  },
});
