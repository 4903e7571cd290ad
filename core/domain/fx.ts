import type { IsoDate } from './dates.ts';

/** Where a rate comes from: the ECB's published reference rates, or the household's owner. */
export type RateSource = 'ecb' | 'manual';

/** One known rate: units of `currency` per 1 EUR on `date` (the ECB's convention). */
export interface FxRate {
  currency: string;
  date: IsoDate;
  per_eur: number;
  source: RateSource;
}

/** The rate that served a requested date; `stale` when it dates from before that day. */
export interface UsedRate extends FxRate {
  stale: boolean;
}

/** A conversion rate between two currencies on a date, with the stored rates it came from. */
export interface CrossRate {
  /** Units of the target currency per unit of the source currency. */
  rate: number;
  /** The stored rates used: none for an identity, one when a side is EUR, two otherwise. */
  legs: UsedRate[];
}

/**
 * The rates known for some currencies, answering "which rate serves this date". For a currency
 * and date d it takes the newest manual rate on or before d when there is one (the owner's rate
 * wins over the ECB's, whatever their dates), else the newest ECB rate on or before d, else
 * nothing: no rate is ever invented or taken from after d. EUR is 1 per EUR by definition.
 */
export interface RateBook {
  rateOn(currency: string, date: IsoDate, only?: RateSource): UsedRate | null;
  /** `from` → `to` on a date: per_eur(to) / per_eur(from); null when a side has no rate. */
  crossRate(from: string, to: string, date: IsoDate): CrossRate | null;
}

interface Series {
  dates: IsoDate[];
  values: number[];
}

export function createRateBook(rates: readonly FxRate[]): RateBook {
  const byKey = new Map<string, Series>();
  const sorted = [...rates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const rate of sorted) {
    if (rate.currency === 'EUR' || !(rate.per_eur > 0) || !Number.isFinite(rate.per_eur)) continue;
    const key = `${rate.currency}|${rate.source}`;
    let series = byKey.get(key);
    if (!series) byKey.set(key, (series = { dates: [], values: [] }));
    if (series.dates[series.dates.length - 1] === rate.date)
      series.values[series.values.length - 1] = rate.per_eur;
    else {
      series.dates.push(rate.date);
      series.values.push(rate.per_eur);
    }
  }

  const newest = (currency: string, source: RateSource, date: IsoDate): UsedRate | null => {
    const series = byKey.get(`${currency}|${source}`);
    if (!series) return null;
    const index = lastIndexOnOrBefore(series.dates, date);
    if (index < 0) return null;
    const used = series.dates[index] ?? date;
    return { currency, date: used, per_eur: series.values[index] ?? 0, source, stale: used < date };
  };

  const rateOn = (currency: string, date: IsoDate, only?: RateSource): UsedRate | null => {
    if (currency === 'EUR') return { currency, date, per_eur: 1, source: 'ecb', stale: false };
    if (only) return newest(currency, only, date);
    return newest(currency, 'manual', date) ?? newest(currency, 'ecb', date);
  };

  return {
    rateOn,
    crossRate(from, to, date) {
      if (from === to) return { rate: 1, legs: [] };
      const a = rateOn(from, date);
      const b = rateOn(to, date);
      if (!a || !b) return null;
      return { rate: b.per_eur / a.per_eur, legs: [a, b].filter((leg) => leg.currency !== 'EUR') };
    },
  };
}

/** The index of the last date on or before `date` in an ascending list, or -1. */
function lastIndexOnOrBefore(dates: readonly IsoDate[], date: IsoDate): number {
  let lo = 0;
  let hi = dates.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((dates[mid] ?? '') <= date) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * One line describing a cross rate as a whole: dated by its oldest leg, manual when any leg was
 * set by hand, stale when any leg is.
 */
export function describeCross(
  cross: CrossRate,
  date: IsoDate,
): { date: IsoDate; source: RateSource; stale: boolean } {
  let oldest = date;
  for (const leg of cross.legs) if (leg.date < oldest) oldest = leg.date;
  return {
    date: oldest,
    source: cross.legs.some((leg) => leg.source === 'manual') ? 'manual' : 'ecb',
    stale: cross.legs.some((leg) => leg.stale),
  };
}

/** A rate as a decimal string of six significant digits, trailing zeros dropped, never an exponent ("0.91416"). */
export function formatRate(rate: number): string {
  if (!Number.isFinite(rate) || rate <= 0) return '0';
  const digits = Math.max(0, 5 - Math.floor(Math.log10(rate)));
  return rate
    .toFixed(Math.min(digits, 20))
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
