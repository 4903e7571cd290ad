import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { revokeFeedsOf } from './_lib/feeds.ts';

export const revokeCalendarFeed = defineOp({
  name: 'revoke_calendar_feed',
  title: 'Revoke my calendar feed',
  description:
    "Stops the caller's calendar feed URL: calendar apps get nothing more. A new feed, made in the web app, has a new URL.",
  input: z.object({}),
  output: z.object({ revoked: z.int() }),
  effect: 'destructive',
  exclude: { chat: 'The feed is managed on the web app’s Calendar screen, where it is created.' },
  scope: 'trusted',
  idempotent: true,
  async run(ctx) {
    return { revoked: await revokeFeedsOf(ctx) };
  },
});
