import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { Category, ShortName } from '../../domain/schemas.ts';
import { Color } from './_lib/fields.ts';
import { assertNameFree } from './_lib/names.ts';
import { categoryView } from './_lib/views.ts';

export const createCategory = defineOp({
  name: 'create_category',
  title: 'Create a category',
  description:
    'Creates a category to group subscriptions, such as "Streaming", optionally with a colour. Names are unique regardless of case.',
  input: z.object({
    name: ShortName,
    color: Color.optional(),
  }),
  output: Category,
  effect: 'write',
  summarize: (_input, output) => ({ name: output.name }),
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
