import { z } from 'zod';

import { formatRate } from '../../domain/fx.ts';
import { defineOp } from '../../kernel/op.ts';
import { loadRateBook, manualRate } from '../../store/repos/fx.ts';
import { fieldError, household } from '../shared/context.ts';
import { Currency, IsoDate } from '../../domain/schemas.ts';
import { perEurText, RateText } from './_lib/rates.ts';

export const setExchangeRate = defineOp({
  name: 'set_exchange_rate',
  title: 'Set an exchange rate',
  description:
    'Sets the household\'s own rate for a currency from a date on, winning over the ECB\'s (owner only), in units per 1 EUR: "1 EUR = 1.0939 USD" is USD "1.0939"; "1 USD = 0.92 EUR" is "1.0870" (1/0.92).',
  input: z.object({
    currency: Currency.describe('The currency the rate is for (not EUR, which is always 1).'),
    rate: RateText.describe('Units of `currency` per 1 EUR, such as "1.0939".'),
    date: IsoDate.optional().describe('From when it applies (not in the future); default: today.'),
  }),
  output: z.object({
    currency: z.string(),
    per_eur: z.string().describe('Units of the currency per 1 EUR, as stored.'),
    date: z.string(),
    source: z.literal('manual'),
    in_household_currency: z
      .string()
      .nullable()
      .describe('1 unit in the household currency that day; null without a rate.'),
    replaced: z.string().nullable().describe('The rate set by hand for that date before, if any.'),
  }),
  effect: 'write',
  ownerOnly: true,
  idempotent: true,
  summarize: (_input, output) => ({
    currency: output.currency,
    rate: output.per_eur,
    date: output.date,
  }),
  async run(ctx, input) {
    const hh = household(ctx);
    if (input.currency === 'EUR') throw fieldError(ctx, 'currency', 'errors.input.fx_eur');
    const date = input.date ?? ctx.today;
    if (date > ctx.today) throw fieldError(ctx, 'date', 'errors.input.fx_future_date');
    const perEur = Number(input.rate);
    const existing = await manualRate(ctx.tx.trx, hh.id, input.currency, date);
    if (existing)
      await ctx.tx.update('fx_rates', existing.id, { per_eur: perEur, source: 'manual' });
    else {
      await ctx.tx.insert('fx_rates', {
        id: ctx.newId('fx'),
        household_id: hh.id,
        date,
        currency: input.currency,
        per_eur: perEur,
        source: 'manual',
      });
    }
    const book = await loadRateBook(ctx.tx.trx, hh.id, [input.currency, hh.currency], date, date);
    const cross = book.crossRate(input.currency, hh.currency, date);
    return {
      currency: input.currency,
      per_eur: perEurText(perEur),
      date,
      source: 'manual' as const,
      in_household_currency: cross ? formatRate(cross.rate) : null,
      replaced: existing ? perEurText(Number(existing.per_eur)) : null,
    };
  },
});
