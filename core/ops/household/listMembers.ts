import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household } from '../shared/context.ts';
import { Member } from '../../domain/schemas.ts';
import { memberView } from './_lib/views.ts';

export const listMembers = defineOp({
  name: 'list_members',
  title: 'List members',
  description:
    "Lists the household's members with their role (owner or member), language and reminder settings.",
  input: z.object({}),
  output: z.object({ members: z.array(Member) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const rows = await ctx.tx
      .from('members')
      .where({ household_id: household(ctx).id })
      .orderBy('created_at')
      .orderBy('id');
    return { members: rows.map(memberView) };
  },
});
