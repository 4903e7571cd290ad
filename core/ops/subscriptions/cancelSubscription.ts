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
    'Marks a subscription cancelled from a date (default: today). It stays in the history; from that date on no charge is expected and it no longer counts in totals, upcoming charges or reminders (cancelled for a later date, it counts until the day before). To remove it entirely use delete_subscription.',
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
