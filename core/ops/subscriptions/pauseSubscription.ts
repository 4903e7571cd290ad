import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Id, Subscription } from '../../domain/schemas.ts';
import { pause } from './_lib/lifecycle.ts';
import { loadView } from './_lib/view.ts';

export const pauseSubscription = defineOp({
  name: 'pause_subscription',
  title: 'Pause a subscription',
  description:
    'Pauses a subscription from today: no charges are expected or counted in totals until it is resumed.',
  input: z.object({ id: Id }),
  output: Subscription,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    await pause(ctx, await requireSubscription(ctx, input.id));
    return loadView(ctx, input.id);
  },
});
