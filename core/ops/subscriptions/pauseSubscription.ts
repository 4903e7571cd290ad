import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Id, Subscription } from '../../domain/schemas.ts';
import { pause } from './lifecycle.ts';
import { loadView } from './view.ts';

export const pauseSubscription = defineOp({
  name: 'pause_subscription',
  title: 'Pause a subscription',
  description:
    'Pauses a subscription from today: no charges are expected or counted in totals until it is resumed.',
  input: z.object({ id: Id }),
  output: Subscription,
  effect: 'write',
  scope: 'write',
  idempotent: true,
  summarize: (_input, output) => ({
    key: 'activity.pause_subscription',
    params: { name: output.name },
  }),
  async run(ctx, input) {
    await pause(ctx, await requireSubscription(ctx, input.id));
    return loadView(ctx, input.id);
  },
});
