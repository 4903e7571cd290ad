import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Id, IsoDate, Subscription } from '../../domain/schemas.ts';
import { cancel } from './_lib/lifecycle.ts';
import { loadView } from './_lib/view.ts';

export const cancelSubscription = defineOp({
  name: 'cancel_subscription',
  title: 'Cancel a subscription',
  description:
    'Marks a subscription cancelled from a date: it stays in the history but leaves totals, upcoming charges and reminders. delete_subscription removes it entirely.',
  input: z.object({
    id: Id,
    effective_date: IsoDate.optional().describe(
      'The day the cancellation takes effect: nothing is charged from it on; default: today.',
    ),
  }),
  output: Subscription,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    await cancel(ctx, await requireSubscription(ctx, input.id), input.effective_date);
    return loadView(ctx, input.id);
  },
});
