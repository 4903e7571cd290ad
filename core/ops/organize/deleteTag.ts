import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { requireOwned } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import { unlinkTag } from './_lib/reassign.ts';

export const deleteTag = defineOp({
  name: 'delete_tag',
  title: 'Delete a tag',
  description: 'Deletes a tag and takes it off every subscription; the subscriptions stay.',
  input: z.object({ id: Id }),
  output: z.object({
    id: Id,
    name: z.string(),
    deleted: z.literal(true),
    subscriptions_untagged: z.int().describe('Only those you can see.'),
  }),
  effect: 'destructive',
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const tag = await requireOwned<Row>(ctx, 'tags', 'tag', input.id, { forUpdate: true });
    const untagged = await unlinkTag(ctx, input.id);
    await ctx.tx.remove('tags', input.id);
    return {
      id: input.id,
      name: String(tag.name),
      deleted: true as const,
      subscriptions_untagged: untagged,
    };
  },
});
