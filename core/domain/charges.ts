import { type Cycle, occurrencesBetween } from './cycles.ts';
import { addDays, type IsoDate, minDate } from './dates.ts';

/** What a charge series needs to know about its subscription. */
export interface SeriesInput {
  amount_minor: number;
  first_charge_date: IsoDate;
  cycle: Cycle;
  status: 'active' | 'trial' | 'paused' | 'cancelled';
  trial_ends_on: IsoDate | null;
  paused_on: IsoDate | null;
  cancelled_on: IsoDate | null;
}

export interface PriceChangeInput {
  effective_date: IsoDate;
  old_amount_minor: number;
  new_amount_minor: number;
}

export interface ExpectedCharge {
  due_date: IsoDate;
  amount_minor: number;
}

/**
 * The price in effect on a date: the newest price change on or before it, the price before the
 * first change for earlier dates, the current amount when there is no history.
 */
export function priceOn(
  date: IsoDate,
  current: number,
  changes: readonly PriceChangeInput[],
): number {
  if (changes.length === 0) return current;
  const sorted = [...changes].sort((a, b) =>
    a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : 0,
  );
  let price = sorted[0]?.old_amount_minor ?? current;
  for (const change of sorted) {
    if (change.effective_date <= date) price = change.new_amount_minor;
    else break;
  }
  return price;
}

/**
 * Whether a subscription cancelled on `cancelledOn` still runs on `date`. The cancellation date is
 * the day the cancellation takes effect: nothing is charged or counted from that day on, so one
 * cancelled today costs nothing today, and one cancelled for the end of the month runs until the
 * day before. Every read path (totals, upcoming, context, savings, reminders) asks this.
 */
export function runsOn(cancelledOn: IsoDate | null, date: IsoDate): boolean {
  return cancelledOn === null || cancelledOn > date;
}

/**
 * The charges a subscription's series expects in [from, to]: none from its cancellation date
 * (see runsOn) or from the day it was paused, and none before a trial ends (the trial is free).
 */
export function expectedCharges(
  series: SeriesInput,
  changes: readonly PriceChangeInput[],
  from: IsoDate,
  to: IsoDate,
): ExpectedCharge[] {
  let end = to;
  if (series.cancelled_on !== null) end = minDate(end, addDays(series.cancelled_on, -1));
  if (series.status === 'paused' && series.paused_on !== null)
    end = minDate(end, addDays(series.paused_on, -1));
  if (series.status === 'cancelled' && series.cancelled_on === null) return [];
  if (end < from) return [];
  // A loop, not filter/map: this runs once per subscription of a household on every insight read.
  const out: ExpectedCharge[] = [];
  const trialEnds = series.trial_ends_on;
  for (const date of occurrencesBetween(series.first_charge_date, series.cycle, from, end)) {
    if (trialEnds !== null && date < trialEnds) continue;
    out.push({ due_date: date, amount_minor: priceOn(date, series.amount_minor, changes) });
  }
  return out;
}
