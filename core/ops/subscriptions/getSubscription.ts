import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Id, Subscription } from '../../domain/schemas.ts';
import { loadView } from './_lib/view.ts';

export const getSubscription = defineOp({
  name: 'get_subscription',
  title: 'Get a subscription',
  description:
    'Returns one subscription with everything known about it, including its next charge date and monthly cost.',
  input: z.object({ id: Id }),
  output: Subscription,
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    return loadView(ctx, input.id);
  },
});
