import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { nowIso } from '../shared/context.ts';
import { Household, Language, Member, Name } from '../../domain/schemas.ts';
import { linkIdentities } from './_lib/identities.ts';
import { DEFAULT_REMINDERS, householdView, memberView } from './_lib/views.ts';

export const joinHousehold = defineOp({
  name: 'join_household',
  title: 'Join a household',
  description:
    'Joins the household that issued an invite code, as a member. A code works once and expires. In the web app a person joins from the invite link in a browser, and is signed in.',
  input: z.object({
    code: z.string().trim().min(4).max(40),
    name: Name.describe("The new member's display name."),
    language: Language.default('en'),
  }),
  output: z.object({ household: Household, member: Member }),
  effect: 'write',
  scope: 'trusted',
  household: 'none',
  exclude: {
    mcp: 'Joining is done by a person with an invite link.',
    assistant: 'Joining is done by a person with an invite link.',
  },
  summarize: (input) => ({ name: input.name }),
  async run(ctx, input) {
    if (ctx.actor.householdId !== null)
      throw new OpError('conflict', 'errors.already_in_household');
    // Locked until commit (PostgreSQL; SQLite's write lock is the transaction's): two joins with
    // one code at the same moment, in one process or two, use it once; the second reads it used.
    const invite = (await ctx.tx
      .locked(ctx.tx.from('invites').where({ code: input.code }), 'invites')
      .first()) as Row | undefined;
    if (!invite || invite.used_at !== null || String(invite.expires_at) <= nowIso(ctx)) {
      throw new OpError('not_found', 'errors.invite_invalid');
    }
    const householdRow = await ctx.tx.get('households', String(invite.household_id));
    if (!householdRow) throw new OpError('not_found', 'errors.invite_invalid');
    const now = nowIso(ctx);
    const member = await ctx.tx.insert('members', {
      id: ctx.newId('mem'),
      household_id: String(invite.household_id),
      name: input.name,
      role: 'member',
      language: input.language,
      ...DEFAULT_REMINDERS,
      created_at: now,
    });
    await linkIdentities(ctx, String(member.id), now);
    await ctx.tx.update('invites', String(invite.id), { used_by: String(member.id), used_at: now });
    return { household: householdView(householdRow), member: memberView(member) };
  },
});
