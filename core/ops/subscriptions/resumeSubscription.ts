import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Id, Subscription } from '../../domain/schemas.ts';
import { resume } from './_lib/lifecycle.ts';
import { loadView } from './_lib/view.ts';

export const resumeSubscription = defineOp({
  name: 'resume_subscription',
  title: 'Resume a subscription',
  description:
    'Resumes a paused or cancelled subscription on its original series; the charges it missed are recorded as skipped.',
  input: z.object({ id: Id }),
  output: Subscription,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    await resume(ctx, await requireSubscription(ctx, input.id));
    return loadView(ctx, input.id);
  },
});
