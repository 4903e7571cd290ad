import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Tag } from '../../domain/schemas.ts';
import { householdRows, tagCounts, tagView } from './_lib/views.ts';

export const listTags = defineOp({
  name: 'list_tags',
  title: 'List tags',
  description:
    "Lists the household's tags (free labels; a subscription can have several) with how many subscriptions you can see carry each.",
  input: z.object({}),
  output: z.object({ items: z.array(Tag) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const rows = await householdRows(ctx, 'tags');
    const counts = await tagCounts(ctx);
    return { items: rows.map((row) => tagView(row, counts)) };
  },
});
