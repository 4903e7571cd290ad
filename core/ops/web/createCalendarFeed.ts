import { z } from 'zod';

import { FEED_LENGTH, FEED_PREFIX } from '../../auth/calendarFeeds.ts';
import { hashSecret, secretFromSeed } from '../../auth/secrets.ts';
import { defineOp } from '../../kernel/op.ts';
import { Id } from '../../domain/schemas.ts';
import { household, memberId, nowIso } from '../shared/context.ts';
import { revokeFeedsOf } from './_lib/feeds.ts';

export const createCalendarFeed = defineOp({
  name: 'create_calendar_feed',
  title: 'Create my calendar feed',
  description:
    "Creates the caller's calendar feed: a secret iCal URL (RFC 5545) that calendar apps (Google Calendar, Apple Calendar, Outlook) subscribe to, with the caller's visible charges for the next 12 months, trial ends and notice deadlines as all-day events. The URL is returned once; only its hash is stored. A member has one feed: creating a new one stops the previous URL. Stop it with revoke_calendar_feed.",
  input: z.object({}),
  output: z.object({
    id: Id,
    token: z.string().describe('The secret in the URL, shown this once.'),
    path: z.string().describe('The URL without the server address: /cal/<token>.ics'),
    created_at: z.string(),
    replaced: z.int().describe('How many earlier feed URLs stopped working.'),
  }),
  effect: 'write',
  scope: 'trusted',
  exclude: {
    mcp: 'Reveals a secret: a feed URL gives anyone who has it the member’s calendar.',
    assistant: 'Reveals a secret: a feed URL gives anyone who has it the member’s calendar.',
    chat: 'The web app’s Calendar screen shows the feed URL once, with copy, webcal:// and Revoke; a chat message would keep the secret in the chat’s history.',
  },
  async run(ctx) {
    const replaced = await revokeFeedsOf(ctx);
    const token = secretFromSeed(
      `${ctx.newId('cal')}:${ctx.newId('cal')}`,
      FEED_LENGTH,
      FEED_PREFIX,
    );
    const id = ctx.newId('cal');
    const createdAt = nowIso(ctx);
    await ctx.tx.insert('calendar_feeds', {
      id,
      token_hash: hashSecret(token),
      household_id: household(ctx).id,
      member_id: memberId(ctx),
      created_at: createdAt,
      revoked_at: null,
    });
    return { id, token, path: `/cal/${token}.ics`, created_at: createdAt, replaced };
  },
});
