import { z } from 'zod';

import { formatAmount, parseAmount } from '../../domain/money.ts';
import { defineOp } from '../../kernel/op.ts';
import { Conversion } from '../../domain/schemas.ts';
import { Converter } from './_lib/convert.ts';
import { fullRows, RUNNING } from './_lib/load.ts';
import { collectSavings, Finding, FindingFacts } from './_lib/savings.ts';

export const findSavings = defineOp({
  name: 'find_savings',
  title: 'Find savings',
  description:
    'Finds money to save: trials turning paid within 7 days, the same service twice, price rises in the last 12 months and old monthly plans, with an estimated yearly saving where computable.',
  input: z.object({}),
  output: z.object({
    currency: z.string(),
    findings: z.array(
      Finding.extend({
        facts: FindingFacts.describe(
          "What the explanation says, as data (amounts in the subscription's currency, dates YYYY-MM-DD), for a screen that writes it in its reader's formats.",
        ),
      }),
    ),
    total_estimated_yearly_saving: z
      .string()
      .describe('Sum of the estimated savings that could be computed.'),
    conversion: Conversion,
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const subs = await fullRows(ctx, RUNNING);
    const converter = await Converter.load(
      ctx,
      subs.map((s) => s.currency),
      ctx.today,
      ctx.today,
    );
    const { findings, factsOf } = await collectSavings(ctx, subs, converter);
    let total = 0;
    for (const f of findings) {
      const parsed =
        f.estimated_yearly_saving === null
          ? null
          : parseAmount(f.estimated_yearly_saving, converter.target);
      if (parsed?.ok) total += parsed.minor;
    }
    return {
      currency: converter.target,
      findings: findings.map((f, i) => ({ ...f, facts: factsOf(i) })),
      total_estimated_yearly_saving: formatAmount(total, converter.target),
      conversion: converter.facts(),
    };
  },
});
