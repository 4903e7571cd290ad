import { firstIndexOnOrAfter, nthOccurrence } from '../../../domain/cycles.ts';
import { daysBetween } from '../../../domain/dates.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { cycleOf, type SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { recordCharge, recordedCharge } from '../../charges/_lib/record.ts';
import { requireSubscription } from '../../shared/context.ts';
import { type Candidate, toMinorUnits } from './analyse.ts';

const DAYS: Record<SubscriptionRow['cycle_unit'], number> = {
  day: 1,
  week: 7,
  month: 30.44,
  year: 365.24,
};

/**
 * How far a statement's charge may sit from its series date and still be that charge: a sixth of
 * the cycle (5 days a month), at least 2 days (weekends), at most 12. Within the detector's own
 * tolerance, so every charge it grouped into a series finds its date.
 */
function drift(sub: SubscriptionRow): number {
  const days = DAYS[sub.cycle_unit] * Number(sub.cycle_every);
  return Math.min(12, Math.max(2, Math.round(days / 6)));
}

/** The series date nearest to `date`, or null when none is within the drift. */
function seriesDate(sub: SubscriptionRow, date: string): string | null {
  const cycle = cycleOf(sub);
  const index = firstIndexOnOrAfter(sub.first_charge_date, cycle, date);
  const options = [nthOccurrence(sub.first_charge_date, cycle, index)];
  if (index > 0) options.push(nthOccurrence(sub.first_charge_date, cycle, index - 1));
  let best: string | null = null;
  for (const d of options) {
    const off = Math.abs(daysBetween(d, date));
    if (off <= drift(sub) && (best === null || off < Math.abs(daysBetween(best, date)))) best = d;
  }
  return best;
}

/**
 * Records the charges a candidate shows on the statement as paid on its subscription, with the
 * amounts and in the currency the statement charged, each on the series date it stands for; only
 * past ones (up to today) and only dates nothing is recorded on yet (a charge marked paid or
 * skipped before stays as it was). Through ctx.tx, so it is in the import's one undo. Returns how
 * many it recorded.
 */
export async function recordSeenCharges(
  ctx: OpContext,
  sub: SubscriptionRow,
  candidate: Candidate,
): Promise<number> {
  // Locks the subscription until commit (PostgreSQL), as mark_charge_paid does: a charge marked
  // paid at the same time is seen here (and kept) rather than recorded twice.
  await requireSubscription(ctx, sub.id);
  const used = new Set<string>();
  let count = 0;
  for (const charge of candidate.detected.charges) {
    if (charge.date > ctx.today) continue;
    const due = seriesDate(sub, charge.date);
    if (due === null || due > ctx.today || used.has(due)) continue;
    used.add(due);
    if (await recordedCharge(ctx, sub.id, due)) continue;
    const currency = candidate.view.currency;
    await recordCharge(ctx, sub, due, 'paid', toMinorUnits(charge.amount, currency), currency);
    count += 1;
  }
  return count;
}
