import type { OpContext } from '../../../kernel/op.ts';
import { type ChargeRow, priceChangesBySubscription } from '../../../store/repos/charges.ts';
import { priceOn } from '../../../domain/charges.ts';
import { cycleOf, type SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { formatAmount } from '../../../domain/money.ts';
import { fieldError, nowIso, toMinor } from '../../shared/context.ts';
import { firstIndexOnOrAfter, nthOccurrence } from '../../../domain/cycles.ts';
import type { Charge } from '../../../domain/schemas.ts';

/** The price a subscription's series expects on a date, from its price history. */
export async function expectedPrice(
  ctx: OpContext,
  sub: SubscriptionRow,
  date: string,
): Promise<number> {
  const changes = (await priceChangesBySubscription(ctx.tx.trx, [sub.id])).get(sub.id) ?? [];
  return priceOn(date, sub.amount_minor, changes);
}

/**
 * Refuses a date that is not one of the subscription's charge dates (a charge recorded beside the
 * series would count that month twice), naming the nearest ones.
 */
function requireSeriesDate(ctx: OpContext, sub: SubscriptionRow, dueDate: string): void {
  const cycle = cycleOf(sub);
  const anchor = sub.first_charge_date;
  const index = firstIndexOnOrAfter(anchor, cycle, dueDate);
  const next = nthOccurrence(anchor, cycle, index);
  if (next === dueDate) return;
  const dates = index > 0 ? [nthOccurrence(anchor, cycle, index - 1), next] : [next];
  throw fieldError(ctx, 'due_date', 'errors.input.not_in_series', {
    name: sub.name,
    date: dueDate,
    dates: dates.join(', '),
  });
}

/** The charge recorded for a subscription on a date (paid or skipped), if any. */
export async function recordedCharge(
  ctx: OpContext,
  subscriptionId: string,
  dueDate: string,
): Promise<ChargeRow | undefined> {
  return (await ctx.tx
    .from('charges')
    .where({ subscription_id: subscriptionId, due_date: dueDate })
    .first()) as ChargeRow | undefined;
}

/**
 * What mark_charge_paid does, for every op that marks charges paid: the charge paid with `amount`
 * (a decimal string; default the price the series expects that day) in `currency` (default the
 * subscription's; another currency needs an amount). `field` names the input refused.
 */
export async function markPaid(
  ctx: OpContext,
  sub: SubscriptionRow,
  dueDate: string,
  given: { amount?: string | undefined; currency?: string | undefined },
  field = 'amount',
): Promise<Charge> {
  const currency = given.currency ?? sub.currency;
  if (currency !== sub.currency && given.amount === undefined)
    throw fieldError(ctx, field, 'errors.input.amount_with_currency', { currency });
  const amount =
    given.amount !== undefined
      ? toMinor(ctx, given.amount, currency, field)
      : await expectedPrice(ctx, sub, dueDate);
  return recordCharge(ctx, sub, dueDate, 'paid', amount, currency);
}

/** Records (or re-records) the charge of a subscription on a date, replacing an earlier record. */
export async function recordCharge(
  ctx: OpContext,
  sub: SubscriptionRow,
  dueDate: string,
  status: 'paid' | 'skipped',
  amountMinor: number | null,
  currency: string,
  /** What a skipped charge shows: the price that was not taken. */
  shownMinor?: number,
): Promise<Charge> {
  const existing = await recordedCharge(ctx, sub.id, dueDate);
  if (!existing) requireSeriesDate(ctx, sub, dueDate);
  const fields = { status, amount_minor: amountMinor, currency, recorded_at: nowIso(ctx) };
  const row = existing
    ? await ctx.tx.update('charges', existing.id, fields)
    : await ctx.tx.insert('charges', {
        id: ctx.newId('chg'),
        household_id: sub.household_id,
        subscription_id: sub.id,
        due_date: dueDate,
        note: null,
        ...fields,
      });
  return {
    id: String(row.id),
    subscription_id: sub.id,
    subscription_name: sub.name,
    due_date: dueDate,
    status,
    amount: formatAmount(amountMinor ?? shownMinor ?? sub.amount_minor, currency),
    currency,
  };
}
