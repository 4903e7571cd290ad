import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import { remove } from './_lib/lifecycle.ts';

export const deleteSubscription = defineOp({
  name: 'delete_subscription',
  title: 'Delete a subscription',
  description:
    'Deletes a subscription with its recorded charges, price history, tags and shares. Prefer cancel_subscription to keep the history. Can be undone from the activity list.',
  input: z.object({ id: Id }),
  output: z.object({ id: Id, name: z.string(), deleted: z.literal(true) }),
  effect: 'destructive',
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const row = await requireSubscription(ctx, input.id);
    await remove(ctx, row);
    return { id: row.id, name: row.name, deleted: true as const };
  },
});
