import { z } from 'zod';

import { addDays, type IsoDate } from '../../../domain/dates.ts';
import { runsOn } from '../../../domain/charges.ts';
import { formatAmount, parseAmount } from '../../../domain/money.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { chargesBetween } from '../../../store/repos/charges.ts';
import type { InsightRow } from '../../../store/repos/subscriptions.ts';
import { Converter } from './convert.ts';
import { nameOrder } from './load.ts';
import { Id } from '../../../domain/schemas.ts';

export const UpcomingItem = z.object({
  date: z.string(),
  kind: z
    .enum(['charge', 'trial_end', 'notice_deadline'])
    .describe(
      'A charge; the day a trial turns paid; the last day to give notice before a contract renews.',
    ),
  subscription_id: Id,
  subscription_name: z.string(),
  status: z
    .enum(['expected', 'paid'])
    .nullable()
    .describe('For charges: expected, or already recorded as paid.'),
  amount: z
    .string()
    .describe(
      'The charge, or for a trial end or notice deadline the price per cycle, in its own currency.',
    ),
  currency: z.string(),
  converted: z
    .string()
    .nullable()
    .describe("The amount in the household currency at today's rate; null when no rate exists."),
});
export type UpcomingItem = z.infer<typeof UpcomingItem>;

const KIND_ORDER: Record<UpcomingItem['kind'], number> = {
  notice_deadline: 0,
  trial_end: 1,
  charge: 2,
};

/**
 * Subscriptions that may have something on or after `from`: paused ones have no charges, trial
 * ends or notice to give; cancelled ones only charges before their cancellation date (runsOn).
 */
export function mayHaveUpcoming(row: InsightRow, from: IsoDate): boolean {
  if (row.status === 'paused') return row.contract_ends_on !== null;
  if (row.status === 'cancelled')
    return row.cancelled_on !== null && runsOn(row.cancelled_on, from);
  return true;
}

/**
 * What happens in [today, today + days]: expected or already paid charges (skipped ones drop
 * out), trial ends and contract notice deadlines (contract end minus notice days), by date. The
 * total counts the charges only, converted at today's rates (the newest known for future dates).
 */
export async function collectUpcoming(
  ctx: OpContext,
  subs: readonly InsightRow[],
  days: number,
): Promise<{
  from: IsoDate;
  to: IsoDate;
  items: UpcomingItem[];
  totalMinor: number;
  converter: Converter;
}> {
  const from = ctx.today;
  const to = addDays(from, days);
  const candidates = subs.filter((s) => mayHaveUpcoming(s, from));
  const order = await nameOrder(ctx);
  const charges = (
    await chargesBetween(
      ctx.tx.trx,
      candidates.filter((s) => s.status !== 'paused'),
      from,
      to,
      order,
    )
  ).filter((c) => c.status !== 'skipped');
  const converter = await Converter.load(
    ctx,
    [...candidates.map((s) => s.currency), ...charges.map((c) => c.currency)],
    from,
    from,
  );
  const items: UpcomingItem[] = [];
  let totalMinor = 0;
  for (const charge of charges) {
    const parsed = parseAmount(charge.amount, charge.currency);
    const converted = parsed.ok
      ? converter.convert(parsed.minor, charge.currency, from, charge.subscription_id)
      : null;
    if (converted !== null) totalMinor += converted;
    items.push({
      date: charge.due_date,
      kind: 'charge',
      subscription_id: charge.subscription_id,
      subscription_name: charge.subscription_name,
      status: charge.status === 'paid' ? 'paid' : 'expected',
      amount: charge.amount,
      currency: charge.currency,
      converted: converted === null ? null : formatAmount(converted, converter.target),
    });
  }
  for (const sub of candidates) {
    const event = (kind: 'trial_end' | 'notice_deadline', date: IsoDate): void => {
      if (date < from || date > to) return;
      const converted = converter.apply(sub.amount_minor, sub.currency, from);
      items.push({
        date,
        kind,
        subscription_id: sub.id,
        subscription_name: sub.name,
        status: null,
        amount: formatAmount(sub.amount_minor, sub.currency),
        currency: sub.currency,
        converted: converted === null ? null : formatAmount(converted, converter.target),
      });
    };
    if (sub.status === 'trial' && sub.trial_ends_on !== null) event('trial_end', sub.trial_ends_on);
    if (sub.status !== 'cancelled' && sub.contract_ends_on !== null)
      event('notice_deadline', addDays(sub.contract_ends_on, -(sub.notice_days ?? 0)));
  }
  items.sort(
    (a, b) =>
      compareText(a.date, b.date) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      (order.get(a.subscription_id) ?? 0) - (order.get(b.subscription_id) ?? 0),
  );
  return { from, to, items, totalMinor, converter };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
