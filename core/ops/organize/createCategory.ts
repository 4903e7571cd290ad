import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { Category, ShortName } from '../../domain/schemas.ts';
import { Color } from './fields.ts';
import { assertNameFree } from './names.ts';
import { categoryView } from './views.ts';

export const createCategory = defineOp({
  name: 'create_category',
  title: 'Create a category',
  description:
    'Creates a category to group subscriptions, such as "Streaming", optionally with a colour (#RRGGBB). Names are unique in the household regardless of case: an existing name is refused. Returns the new category.',
  input: z.object({
    name: ShortName.describe('The category\'s name, such as "Streaming".'),
    color: Color.optional(),
  }),
  output: Category,
  effect: 'write',
  scope: 'write',
  summarize: (_input, output) => ({
    key: 'activity.create_category',
    params: { name: output.name },
  }),
  async run(ctx, input) {
    await assertNameFree(ctx, 'categories', input.name);
    const row = await ctx.tx.insert('categories', {
      id: ctx.newId('cat'),
      household_id: household(ctx).id,
      name: input.name,
      color: input.color ?? null,
      created_at: nowIso(ctx),
    });
    return categoryView(row, new Map());
  },
});
