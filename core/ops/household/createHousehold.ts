import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { nowIso } from '../shared/context.ts';
import { canonicalTimeZone } from '../../domain/dates.ts';
import { Currency, Household, Language, Member, Name, TimeZone } from '../../domain/schemas.ts';
import { linkIdentities } from './_lib/identities.ts';
import { DEFAULT_REMINDERS, householdView, memberView } from './_lib/views.ts';

export const createHousehold = defineOp({
  name: 'create_household',
  title: 'Create a household',
  description:
    'Creates a new household with its currency, time zone and language, and makes the caller its owner. Used once per person, on first start.',
  input: z.object({
    name: Name.describe('The household\'s name, such as "Casa García".'),
    currency: Currency,
    time_zone: TimeZone,
    language: Language.default('en'),
    owner_name: Name.describe("The owner's display name."),
  }),
  output: z.object({ household: Household, member: Member }),
  effect: 'write',
  scope: 'trusted',
  household: 'none',
  exclude: {
    mcp: 'An agent works inside the household its token belongs to; a household is created by a person.',
    assistant: 'The assistant works inside an existing household.',
    web: 'The Mini App opens inside an existing household.',
  },
  summarize: (input) => ({ name: input.name }),
  async run(ctx, input) {
    if (ctx.actor.householdId !== null)
      throw new OpError('conflict', 'errors.already_in_household');
    const now = nowIso(ctx);
    const household = await ctx.tx.insert('households', {
      id: ctx.newId('hh'),
      name: input.name,
      currency: input.currency,
      time_zone: canonicalTimeZone(input.time_zone),
      locale: input.language,
      created_at: now,
      updated_at: now,
    });
    const member = await ctx.tx.insert('members', {
      id: ctx.newId('mem'),
      household_id: String(household.id),
      name: input.owner_name,
      role: 'owner',
      language: input.language,
      ...DEFAULT_REMINDERS,
      created_at: now,
    });
    await linkIdentities(ctx, String(member.id), now);
    return { household: householdView(household), member: memberView(member) };
  },
});
