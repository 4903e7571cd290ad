import type { OpContext } from '../../../kernel/op.ts';
import { addDays } from '../../../domain/dates.ts';
import { occurrencesBetween } from '../../../domain/cycles.ts';
import { cycleOf, type SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { fieldError, nowIso } from '../../shared/context.ts';
import type { ChargeRow } from '../../../store/repos/charges.ts';

/**
 * Status changes shared by the single ops and bulk_update_subscriptions, so both behave the same.
 * Each is a no-op (records nothing) when the subscription is already in the wanted state.
 */
export async function pause(ctx: OpContext, row: SubscriptionRow): Promise<void> {
  if (row.status === 'paused') return;
  if (row.status === 'cancelled')
    throw fieldError(ctx, 'id', 'errors.input.cancelled_cannot_pause', { name: row.name });
  await ctx.tx.update('subscriptions', row.id, {
    status: 'paused',
    paused_on: ctx.today,
    updated_at: nowIso(ctx),
  });
}

/**
 * Resumes a paused or cancelled subscription; the series continues from its anchor. The charges
 * of the gap (paused, or after the cancellation) are recorded as skipped, so resuming does not
 * make the past months count as paid.
 */
export async function resume(ctx: OpContext, row: SubscriptionRow): Promise<void> {
  if (row.status === 'active' || row.status === 'trial') return;
  await skipTheGap(ctx, row);
  await ctx.tx.update('subscriptions', row.id, {
    status: row.trial_ends_on !== null && row.trial_ends_on > ctx.today ? 'trial' : 'active',
    paused_on: null,
    cancelled_on: null,
    updated_at: nowIso(ctx),
  });
}

/** Skipped charges for the series dates between a pause (or cancellation) and today. */
async function skipTheGap(ctx: OpContext, row: SubscriptionRow): Promise<void> {
  const from =
    row.status === 'paused' ? row.paused_on : row.cancelled_on !== null ? row.cancelled_on : null;
  const until = addDays(ctx.today, -1);
  if (from === null || from > until) return;
  const dates = occurrencesBetween(row.first_charge_date, cycleOf(row), from, until).filter(
    (date) =>
      date >= row.first_charge_date && (row.trial_ends_on === null || date >= row.trial_ends_on),
  );
  if (dates.length === 0) return;
  const recorded = new Set(
    (
      await ctx.tx
        .from<ChargeRow>('charges')
        .where({ subscription_id: row.id })
        .whereBetween('due_date', [from, until])
        .select('due_date')
    ).map((c) => c.due_date),
  );
  for (const date of dates) {
    if (recorded.has(date)) continue;
    await ctx.tx.insert('charges', {
      id: ctx.newId('chg'),
      household_id: row.household_id,
      subscription_id: row.id,
      due_date: date,
      status: 'skipped',
      amount_minor: null,
      currency: row.currency,
      note: null,
      recorded_at: nowIso(ctx),
    });
  }
}

/** Cancels from a date (default today): charges after it are no longer expected. */
export async function cancel(
  ctx: OpContext,
  row: SubscriptionRow,
  effective?: string,
): Promise<void> {
  const on = effective ?? ctx.today;
  if (row.status === 'cancelled' && row.cancelled_on === on) return;
  // Before the first charge (a trial stopped in time) is allowed: the series then has no charges.
  await ctx.tx.update('subscriptions', row.id, {
    status: 'cancelled',
    cancelled_on: on,
    paused_on: null,
    updated_at: nowIso(ctx),
  });
}

/** Deletes a subscription with its tags, shares, recorded charges and price history. */
export async function remove(ctx: OpContext, row: SubscriptionRow): Promise<void> {
  for (const table of [
    'subscription_tags',
    'subscription_shares',
    'charges',
    'price_changes',
  ] as const) {
    await ctx.tx.removeWhere(table, { subscription_id: row.id });
  }
  await ctx.tx.remove('subscriptions', row.id);
}
