import { z } from 'zod';

import { formatAmount } from '../../domain/money.ts';
import { defineOp } from '../../kernel/op.ts';
import { Conversion } from '../../domain/schemas.ts';
import { fullRows } from './_lib/load.ts';
import { collectUpcoming, UpcomingItem } from './_lib/upcoming.ts';

export const getUpcoming = defineOp({
  name: 'get_upcoming',
  title: 'Upcoming charges and deadlines',
  description:
    'What is coming in the next days, in date order: the charges each series expects (or were paid), trial ends and contract notice deadlines, each also in the household currency. For "what will I pay this month?".',
  input: z.object({
    days: z.int().min(1).max(366).default(30).describe('How many days ahead to look.'),
  }),
  output: z.object({
    from: z.string(),
    to: z.string(),
    currency: z.string().describe('The household currency of `converted` and `total`.'),
    total: z
      .string()
      .describe(
        'The charges in the window, converted; amounts without a rate are listed in conversion.left_out.',
      ),
    items: z.array(UpcomingItem),
    conversion: Conversion,
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    const subs = await fullRows(ctx);
    const { from, to, items, totalMinor, converter } = await collectUpcoming(ctx, subs, input.days);
    return {
      from,
      to,
      currency: converter.target,
      total: formatAmount(totalMinor, converter.target),
      items,
      conversion: converter.facts(),
    };
  },
});
