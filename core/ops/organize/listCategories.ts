import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Category } from '../../domain/schemas.ts';
import { categoryView, countsBy, householdRows } from './_lib/views.ts';

export const listCategories = defineOp({
  name: 'list_categories',
  title: 'List categories',
  description:
    "Lists the household's categories with their colour and the number of subscriptions you can see in each.",
  input: z.object({}),
  output: z.object({ items: z.array(Category) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    // One query at a time: a transaction is one connection, and pg refuses overlapping queries.
    const rows = await householdRows(ctx, 'categories');
    const counts = await countsBy(ctx, 'category_id');
    return { items: rows.map((row) => categoryView(row, counts)) };
  },
});
