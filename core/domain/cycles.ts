import { addDays, addMonths, daysBetween, type IsoDate, parts } from './dates.ts';

export const CYCLE_UNITS = ['day', 'week', 'month', 'year'] as const;
export type CycleUnit = (typeof CYCLE_UNITS)[number];

/** A billing cycle: every `every` units. Monthly and yearly cycles keep the anchor's day of month. */
export interface Cycle {
  unit: CycleUnit;
  every: number;
}

const APPROX_DAYS: Record<CycleUnit, number> = {
  day: 1,
  week: 7,
  month: 30.436875,
  year: 365.2425,
};

/**
 * The n-th charge date (n = 0 is the anchor). Months are counted from the anchor, not from the
 * previous date, so a series on the 31st goes Jan 31, Feb 28, Mar 31; Feb 29 yearly falls on
 * Feb 28 in common years and returns to Feb 29 in leap years.
 */
export function nthOccurrence(anchor: IsoDate, cycle: Cycle, n: number): IsoDate {
  switch (cycle.unit) {
    case 'day':
      return addDays(anchor, n * cycle.every);
    case 'week':
      return addDays(anchor, 7 * n * cycle.every);
    case 'month':
      return addMonths(anchor, n * cycle.every, parts(anchor).day);
    case 'year':
      return addMonths(anchor, 12 * n * cycle.every, parts(anchor).day);
    default: {
      const unreachable: never = cycle.unit;
      throw new Error(`unknown cycle unit ${String(unreachable)}`);
    }
  }
}

/** The index of the first occurrence on or after `date` (0 when `date` is before the anchor). */
export function firstIndexOnOrAfter(anchor: IsoDate, cycle: Cycle, date: IsoDate): number {
  if (date <= anchor) return 0;
  const estimate = Math.floor(daysBetween(anchor, date) / (APPROX_DAYS[cycle.unit] * cycle.every));
  let n = Math.max(0, estimate - 2);
  while (nthOccurrence(anchor, cycle, n) < date) n += 1;
  return n;
}

/** The first charge date on or after `date`. */
export function nextOccurrence(anchor: IsoDate, cycle: Cycle, date: IsoDate): IsoDate {
  return nthOccurrence(anchor, cycle, firstIndexOnOrAfter(anchor, cycle, date));
}

/** Every charge date in [from, to], in order, at most `limit` of them. */
export function occurrencesBetween(
  anchor: IsoDate,
  cycle: Cycle,
  from: IsoDate,
  to: IsoDate,
  limit = 10_000,
): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let n = firstIndexOnOrAfter(anchor, cycle, from); dates.length < limit; n += 1) {
    const date = nthOccurrence(anchor, cycle, n);
    if (date > to) break;
    dates.push(date);
  }
  return dates;
}

/** How many charges of this cycle fall in an average month (a yearly plan is 1/12). */
export function chargesPerMonth(cycle: Cycle): number {
  return APPROX_DAYS.month / (APPROX_DAYS[cycle.unit] * cycle.every);
}
