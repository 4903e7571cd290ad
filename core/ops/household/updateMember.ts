import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { household, requireOwned } from '../shared/context.ts';
import { Id, Language, Member, Name, Platform, PLATFORMS } from '../../domain/schemas.ts';
import { orderIdentities } from './_lib/identities.ts';
import { memberView } from './_lib/views.ts';

export const updateMember = defineOp({
  name: 'update_member',
  title: 'Update a member',
  description:
    "Changes a member's name, language, reminder days and time, chat channel order or role. Members change themselves; the owner anyone, and only the owner changes roles.",
  input: z.object({
    id: Id.describe("The member's id (see list_members)."),
    name: Name.optional(),
    language: Language.optional(),
    reminder_offsets: z.array(z.int().min(0).max(60)).max(5).optional(),
    reminder_time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .optional(),
    role: z.enum(['owner', 'member']).optional(),
    channels: z
      .array(Platform)
      .max(PLATFORMS.length)
      .refine((list) => new Set(list).size === list.length, 'Name each channel once.')
      .optional()
      .describe('Chat platforms for reminders, preferred first (the first that works is used).'),
  }),
  output: Member,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name, language: output.language }),
  // A change of language alone is named as such ("Changed Ana's language to English"), and its
  // undo as "Ana's language back to Spanish" (activity.update_member.language.undo).
  summaryVariant: (input) =>
    input.language !== undefined &&
    Object.entries(input).every(
      ([field, v]) => field === 'id' || field === 'language' || v === undefined,
    )
      ? 'language'
      : null,
  async run(ctx, input) {
    const target = await requireOwned<Row>(ctx, 'members', 'member', input.id, { forUpdate: true });
    const self = ctx.actor.memberId === input.id;
    if (!self && ctx.actor.role !== 'owner') throw new OpError('forbidden', 'errors.owner_only');
    if (input.role !== undefined && input.role !== target.role) {
      if (ctx.actor.role !== 'owner') throw new OpError('forbidden', 'errors.owner_only');
      if (target.role === 'owner') {
        const owners = await ctx.tx
          .from('members')
          .where({ household_id: household(ctx).id, role: 'owner' });
        if (owners.length <= 1) throw new OpError('conflict', 'errors.last_owner');
      }
    }
    const patch = {
      name: input.name,
      language: input.language,
      reminder_offsets: input.reminder_offsets
        ? JSON.stringify([...new Set(input.reminder_offsets)].sort((a, b) => b - a))
        : undefined,
      reminder_time: input.reminder_time,
      role: input.role,
    };
    // Only the channel order given: the member's row is not touched (nor recorded as a change).
    const row = Object.values(patch).some((v) => v !== undefined)
      ? await ctx.tx.update('members', input.id, patch)
      : target;
    if (input.channels) await orderIdentities(ctx, input.id, input.channels);
    return memberView(row);
  },
});
