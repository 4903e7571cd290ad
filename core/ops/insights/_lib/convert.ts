import type { z } from 'zod';

import { localeOrder } from '../../../domain/text.ts';
import { type IsoDate, minDate } from '../../../domain/dates.ts';
import { type CrossRate, describeCross, formatRate, type RateBook } from '../../../domain/fx.ts';
import { convertMinor, formatAmount } from '../../../domain/money.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { household } from '../../shared/context.ts';
import { rateBookFor } from '../../shared/rates.ts';
import type { Conversion } from '../../../domain/schemas.ts';

export type ConversionFacts = z.input<typeof Conversion>;

/**
 * Converts amounts into the household currency and keeps the facts every total must carry: which
 * rates served (`rate` = household-currency units per 1 unit of `currency`, dated by its oldest
 * leg, `stale` when older than the day asked for) and what was left out for want of any rate.
 * Dates after today convert at today's rates: those are the best known for a future charge.
 */
export class Converter {
  private readonly cache = new Map<string, CrossRate | null>();
  private readonly used = new Map<string, ConversionFacts['rates'][number]>();
  private readonly leftOut = new Map<
    string,
    { subscription_id: string; currency: string; minor: number }
  >();

  constructor(
    private readonly book: RateBook,
    readonly target: string,
    private readonly today: IsoDate,
  ) {}

  /** A converter whose rates cover [from, to] (capped at today) for these currencies. */
  static async load(
    ctx: OpContext,
    currencies: Iterable<string>,
    from: IsoDate,
    to: IsoDate,
  ): Promise<Converter> {
    const book = await rateBookFor(
      ctx,
      currencies,
      minDate(from, ctx.today),
      minDate(to, ctx.today),
    );
    return new Converter(book, household(ctx).currency, ctx.today);
  }

  /** A converter over the same rates with records of its own (for a second figure in one answer). */
  fork(): Converter {
    return new Converter(this.book, this.target, this.today);
  }

  /** The cross rate serving `currency` on `date`, or null (nothing recorded). */
  rate(currency: string, date: IsoDate): CrossRate | null {
    const on = minDate(date, this.today);
    const key = `${currency}|${on}`;
    let cross = this.cache.get(key);
    if (cross === undefined) {
      cross = this.book.crossRate(currency, this.target, on);
      this.cache.set(key, cross);
      if (cross && cross.legs.length > 0) {
        const facts = describeCross(cross, on);
        const rate = formatRate(cross.rate);
        const usedKey = `${currency}|${facts.date}|${facts.source}|${rate}|${facts.stale}`;
        if (!this.used.has(usedKey)) this.used.set(usedKey, { currency, rate, ...facts });
      }
    }
    return cross;
  }

  /**
   * `minor` of `currency` (may be fractional, such as an average monthly cost) in the household
   * currency's minor units, rounded; null when no rate exists, and then recorded as left out for
   * that subscription.
   */
  convert(minor: number, currency: string, date: IsoDate, subscriptionId: string): number | null {
    const converted = this.apply(minor, currency, date);
    if (converted === null) this.omit(subscriptionId, currency, minor);
    return converted;
  }

  /** Like `convert`, for a sum whose left-out subscriptions the caller records itself. */
  apply(minor: number, currency: string, date: IsoDate): number | null {
    const cross = this.rate(currency, date);
    if (!cross) return null;
    // Same currency: round the (possibly fractional) sum without a float round trip through units.
    if (cross.legs.length === 0 && currency === this.target)
      return Math.sign(minor) * Math.round(Math.abs(minor));
    return convertMinor(minor, currency, this.target, cross.rate);
  }

  /** Records an amount left out of a total (summed per subscription and currency). */
  omit(subscriptionId: string, currency: string, minor: number): void {
    const key = `${subscriptionId}|${currency}`;
    const entry = this.leftOut.get(key);
    if (entry) entry.minor += minor;
    else this.leftOut.set(key, { subscription_id: subscriptionId, currency, minor });
  }

  facts(): ConversionFacts {
    const rates = [...this.used.values()].sort(
      (a, b) => localeOrder(a.currency, b.currency) || localeOrder(a.date, b.date),
    );
    const left = [...this.leftOut.values()]
      .sort(
        (a, b) =>
          localeOrder(a.subscription_id, b.subscription_id) || localeOrder(a.currency, b.currency),
      )
      .map((l) => ({
        subscription_id: l.subscription_id,
        amount: formatAmount(l.minor, l.currency),
        currency: l.currency,
      }));
    return { rates, partial: left.length > 0, left_out: left };
  }
}
