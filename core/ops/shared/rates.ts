import { type IsoDate } from '../../domain/dates.ts';
import { createRateBook, type RateBook } from '../../domain/fx.ts';
import { convertMinor } from '../../domain/money.ts';
import type { OpContext } from '../../kernel/op.ts';
import { cachedRead } from '../../kernel/readCache.ts';
import { loadRates } from '../../store/repos/fx.ts';
import { monthlyMinor, type SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { household } from './context.ts';

/**
 * The household's rates for `currencies` (and its own) from `start` to `end`: kept in the read
 * cache for the day where a change is seen at once (SQLite: a manual rate is an op's change, the
 * ECB refresh drops every entry, another process's commit moves data_version); read every time on
 * PostgreSQL, where the ECB refresh of another process sends no change event.
 */
export async function rateBookFor(
  ctx: OpContext,
  currencies: Iterable<string>,
  start: IsoDate,
  end: IsoDate,
): Promise<RateBook> {
  const hh = household(ctx);
  const wanted = new Set(currencies);
  wanted.add(hh.currency);
  const rates = await cachedRead(
    ctx.tx.trx,
    hh.id,
    `rates:${[...wanted].sort().join(',')}:${start}:${end}`,
    ctx.today,
    () => loadRates(ctx.tx.trx, hh.id, wanted, start, end),
    { strict: true, fresh: ctx.fresh },
  );
  return createRateBook(rates);
}

/** The fields of a subscription its monthly cost is made of. */
type Priced = Pick<SubscriptionRow, 'amount_minor' | 'currency' | 'cycle_unit' | 'cycle_every'>;

/**
 * Orders subscriptions by what they cost a month in the household currency at today's rates
 * (list_subscriptions' `monthly_cost` order), ascending: those with no rate to convert them come
 * after every other (their cost is unknown), among themselves by currency, then by their own
 * amount. `rates` names the rates used, so an order kept for the day is told apart from one made
 * with other rates.
 */
export async function monthlyCostOrder(
  ctx: OpContext,
  currencies: Iterable<string>,
): Promise<{ compare: (a: Priced, b: Priced) => number; rates: string }> {
  const target = household(ctx).currency;
  const wanted = [...new Set(currencies)].sort();
  const book = await rateBookFor(ctx, wanted, ctx.today, ctx.today);
  const rates = new Map<string, number | null>();
  for (const currency of wanted)
    rates.set(
      currency,
      currency === target ? 1 : (book.crossRate(currency, target, ctx.today)?.rate ?? null),
    );
  const cost = (row: Priced): number | null => {
    const rate = rates.get(row.currency) ?? null;
    return rate === null ? null : convertMinor(monthlyMinor(row), row.currency, target, rate);
  };
  return {
    compare: (a, b) => {
      const [x, y] = [cost(a), cost(b)];
      if (x !== null && y !== null) return x - y;
      if (x !== null) return -1;
      if (y !== null) return 1;
      if (a.currency !== b.currency) return a.currency < b.currency ? -1 : 1;
      return monthlyMinor(a) - monthlyMinor(b);
    },
    rates: wanted.map((c) => `${c}=${rates.get(c) ?? '-'}`).join(','),
  };
}
