import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, memberId, nowIso } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';

export const createInvite = defineOp({
  name: 'create_invite',
  title: 'Invite a member',
  description:
    'Creates a one-time invite code that lets another person join this household as a member. The code expires after the given number of days. Only the owner may invite.',
  input: z.object({
    expires_in_days: z.int().min(1).max(30).default(7),
  }),
  output: z.object({ id: Id, code: z.string(), expires_at: z.string() }),
  effect: 'write',
  scope: 'trusted',
  ownerOnly: true,
  exclude: { mcp: 'An invite code admits a person to the household; only a person hands one out.' },
  async run(ctx, input) {
    // Unguessable in production (80 random bits), deterministic under a test id generator.
    const code = ctx.newId('join');
    const expires = new Date(ctx.now.getTime() + input.expires_in_days * 86_400_000).toISOString();
    const row = await ctx.tx.insert('invites', {
      id: ctx.newId('inv'),
      household_id: household(ctx).id,
      code,
      role: 'member',
      created_by: memberId(ctx),
      expires_at: expires,
      used_by: null,
      used_at: null,
      created_at: nowIso(ctx),
    });
    return { id: String(row.id), code, expires_at: expires };
  },
});
