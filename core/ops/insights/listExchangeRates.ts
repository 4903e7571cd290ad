import { z } from 'zod';

import { formatRate } from '../../domain/fx.ts';
import { defineOp } from '../../kernel/op.ts';
import { loadRateBook, manualCurrencies } from '../../store/repos/fx.ts';
import { visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import { household } from '../shared/context.ts';
import { IsoDate } from '../../domain/schemas.ts';
import { perEurText } from './_lib/rates.ts';

const Known = z.object({ per_eur: z.string(), date: z.string() }).nullable();

export const listExchangeRates = defineOp({
  name: 'list_exchange_rates',
  title: 'List exchange rates',
  description:
    "The rate serving a date for each currency the household uses, in units per 1 EUR (set by hand, else the ECB's): `stale` when older than the date, `missing` when none (totals leave those amounts out until set_exchange_rate sets one).",
  input: z.object({
    date: IsoDate.optional().describe('The day the rates should serve; default today.'),
  }),
  output: z.object({
    date: z.string(),
    household_currency: z.string(),
    items: z.array(
      z.object({
        currency: z.string(),
        subscription_count: z.int(),
        missing: z.boolean(),
        per_eur: z
          .string()
          .nullable()
          .describe('The rate in use: units of the currency per 1 EUR.'),
        source: z.enum(['ecb', 'manual']).nullable(),
        rate_date: z.string().nullable(),
        stale: z.boolean(),
        in_household_currency: z.string().nullable(),
        ecb: Known.describe('The newest ECB rate on or before the date.'),
        manual: Known.describe('The newest rate set by hand on or before the date.'),
      }),
    ),
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    const hh = household(ctx);
    const date = input.date ?? ctx.today;
    const [counts, manual] = await Promise.all([
      visibleSubscriptions(ctx.tx.trx, ctx.actor, hh.id)
        .groupBy('subscriptions.currency')
        .select('subscriptions.currency')
        .count({ n: '*' }) as Promise<Array<{ currency: string; n: number | string }>>,
      manualCurrencies(ctx.tx.trx, hh.id),
    ]);
    const countBy = new Map(counts.map((c) => [c.currency, Number(c.n)]));
    const currencies = [...new Set([hh.currency, ...countBy.keys(), ...manual])].sort();
    const book = await loadRateBook(ctx.tx.trx, hh.id, currencies, date, date);
    const known = (currency: string, source: 'ecb' | 'manual'): z.infer<typeof Known> => {
      if (currency === 'EUR') return null;
      const r = book.rateOn(currency, date, source);
      return r ? { per_eur: perEurText(r.per_eur), date: r.date } : null;
    };
    return {
      date,
      household_currency: hh.currency,
      items: currencies.map((currency) => {
        const used = book.rateOn(currency, date);
        const cross = book.crossRate(currency, hh.currency, date);
        return {
          currency,
          subscription_count: countBy.get(currency) ?? 0,
          missing: used === null,
          per_eur: used ? perEurText(used.per_eur) : null,
          source: used ? used.source : null,
          rate_date: used ? used.date : null,
          stale: used?.stale ?? false,
          in_household_currency: cross ? formatRate(cross.rate) : null,
          ecb: known(currency, 'ecb'),
          manual: known(currency, 'manual'),
        };
      }),
    };
  },
});
