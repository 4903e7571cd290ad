import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { revokeFeedsOf } from './_lib/feeds.ts';

export const revokeCalendarFeed = defineOp({
  name: 'revoke_calendar_feed',
  title: 'Revoke my calendar feed',
  description:
    "Stops the caller's calendar feed URL: calendar apps subscribed to it get nothing more. Revoking when there is no feed changes nothing. Can be undone from the activity list; create_calendar_feed makes a new URL.",
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
