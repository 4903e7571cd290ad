import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { household, requireOwned } from '../shared/context.ts';
import { Language, Member, Name } from '../../domain/schemas.ts';
import { memberView } from './views.ts';

export const updateMember = defineOp({
  name: 'update_member',
  title: 'Update a member',
  description:
    "Changes a member's name, language, reminder days (days before a charge, e.g. [3, 1]) and reminder time (HH:MM in the household's time zone), or role. Members change themselves; the owner may change anyone and is the only one who may change roles.",
  input: z.object({
    id: z.string().describe("The member's id (see list_members)."),
    name: Name.optional(),
    language: Language.optional(),
    reminder_offsets: z.array(z.int().min(0).max(60)).max(5).optional(),
    reminder_time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .optional(),
    role: z.enum(['owner', 'member']).optional(),
  }),
  output: Member,
  effect: 'write',
  scope: 'write',
  idempotent: true,
  summarize: (_input, output) => ({
    key: 'activity.update_member',
    params: { name: output.name },
  }),
  async run(ctx, input) {
    const target = await requireOwned<Row>(ctx, 'members', 'member', input.id, { forUpdate: true });
    const self = ctx.actor.memberId === input.id;
    if (!self && ctx.actor.role !== 'owner') throw new OpError('forbidden', 'errors.owner_only');
    if (input.role !== undefined && input.role !== target.role) {
      if (ctx.actor.role !== 'owner') throw new OpError('forbidden', 'errors.owner_only');
      if (target.role === 'owner') {
        const owners = (await ctx.tx
          .from('members')
          .where({ household_id: household(ctx).id, role: 'owner' })) as Row[];
        if (owners.length <= 1) throw new OpError('conflict', 'errors.last_owner');
      }
    }
    const row = await ctx.tx.update('members', input.id, {
      name: input.name,
      language: input.language,
      reminder_offsets: input.reminder_offsets
        ? JSON.stringify([...new Set(input.reminder_offsets)].sort((a, b) => b - a))
        : undefined,
      reminder_time: input.reminder_time,
      role: input.role,
    });
    return memberView(row);
  },
});
