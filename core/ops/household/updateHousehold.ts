import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { canonicalTimeZone } from '../../domain/dates.ts';
import { Currency, Household, Language, Name, TimeZone } from '../../domain/schemas.ts';
import { householdView } from './_lib/views.ts';

export const updateHousehold = defineOp({
  name: 'update_household',
  title: 'Update the household',
  description:
    "Changes the household's name, currency, time zone or language (owner only). A new currency changes what totals are shown in; subscriptions keep their own currencies.",
  input: z.object({
    name: Name.optional(),
    currency: Currency.optional(),
    time_zone: TimeZone.optional(),
    locale: Language.optional().describe("The household's default language."),
  }),
  output: Household,
  effect: 'write',
  ownerOnly: true,
  idempotent: true,
  async run(ctx, input) {
    const row = await ctx.tx.update('households', household(ctx).id, {
      name: input.name,
      currency: input.currency,
      time_zone: input.time_zone === undefined ? undefined : canonicalTimeZone(input.time_zone),
      locale: input.locale,
      updated_at: nowIso(ctx),
    });
    return householdView(row);
  },
});
