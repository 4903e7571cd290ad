import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { fieldError, requireOwned } from '../shared/context.ts';
import { Category, Id, Ref } from '../../domain/schemas.ts';
import { reassignSubscriptions } from './_lib/reassign.ts';
import { loadCategory } from './_lib/views.ts';

export const mergeCategories = defineOp({
  name: 'merge_categories',
  title: 'Merge categories',
  description:
    'Moves every subscription of the source categories to the target and deletes the sources, for duplicates such as "TV" and "Streaming".',
  input: z.object({
    source_ids: z
      .array(Id)
      .min(1)
      .max(50)
      .describe('The categories to merge away (deleted afterwards).'),
    target_id: Id.describe('The category that remains and receives their subscriptions.'),
  }),
  output: z.object({
    target: Category,
    merged: z.array(Ref).describe('The source categories, now deleted.'),
    subscriptions_moved: z.int().describe('Only those you can see.'),
  }),
  effect: 'destructive',
  summarize: (_input, output) => ({
    names: output.merged.map((m) => m.name).join(', '),
    target: output.target.name,
  }),
  summaryVariant: (_input, output) => (output.merged.length === 1 ? 'one' : null),
  async run(ctx, input) {
    const target = await requireOwned<Row>(ctx, 'categories', 'category', input.target_id, {
      forUpdate: true,
    });
    const sourceIds = [...new Set(input.source_ids)];
    if (sourceIds.includes(input.target_id))
      throw fieldError(ctx, 'source_ids', 'errors.organize.merge_into_itself');
    const sources: Row[] = [];
    for (const id of sourceIds)
      sources.push(await requireOwned<Row>(ctx, 'categories', 'category', id, { forUpdate: true }));
    const moved = await reassignSubscriptions(ctx, 'category_id', sourceIds, input.target_id);
    for (const id of sourceIds) await ctx.tx.remove('categories', id);
    return {
      target: await loadCategory(ctx, target),
      merged: sources.map((s) => ({ id: String(s.id), name: String(s.name) })),
      subscriptions_moved: moved,
    };
  },
});
