import { z } from 'zod';

import { addDays, type IsoDate } from '../../../domain/dates.ts';
import { runsOn } from '../../../domain/charges.ts';
import { formatAmount, parseAmount } from '../../../domain/money.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { chargesBetween } from '../../../store/repos/charges.ts';
import type { InsightRow } from '../../../store/repos/subscriptions.ts';
import { Converter } from './convert.ts';
import { householdRows, modelRead, nameOrder } from '../../shared/readModel.ts';
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
 * out), trial ends and contract notice deadlines (contract end minus notice days), by date, of
 * the subscriptions `subs` (those the actor sees, maybe of some statuses only). The total counts
 * the charges only, converted at today's rates (the newest known for future dates).
 *
 * The series come from the read model (`upcomingOf`: every subscription's items for the day, up
 * to a horizon of at least `days`); a call keeps those of `subs` up to its last day and converts
 * them. Rates are read on every call: they may be written outside an op (the ECB download).
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
  const wanted = new Set<string>();
  const currencies = new Set<string>();
  for (const sub of subs)
    if (mayHaveUpcoming(sub, from)) {
      wanted.add(sub.id);
      currencies.add(sub.currency);
    }
  const kept: Upcoming[] = [];
  // The model is in date order: its items past `to` are another, longer call's.
  for (const item of await upcomingOf(ctx, horizonFor(days))) {
    if (item.date > to) break;
    if (!wanted.has(item.subscription_id)) continue;
    kept.push(item);
    currencies.add(item.currency);
  }
  const converter = await Converter.load(ctx, currencies, from, from);
  const items: UpcomingItem[] = [];
  let totalMinor = 0;
  for (const item of kept) {
    let converted: number | null = null;
    if (item.kind === 'charge') {
      if (item.minor !== null)
        converted = converter.convert(item.minor, item.currency, from, item.subscription_id);
      if (converted !== null) totalMinor += converted;
    } else if (item.minor !== null) converted = converter.apply(item.minor, item.currency, from);
    // A fixed-shape object of the output's fields only (surfaces serialize it as it is).
    items.push({
      date: item.date,
      kind: item.kind,
      subscription_id: item.subscription_id,
      subscription_name: item.subscription_name,
      status: item.status,
      amount: item.amount,
      currency: item.currency,
      converted: converted === null ? null : formatAmount(converted, converter.target),
    });
  }
  return { from, to, items, totalMinor, converter };
}

/** An upcoming item as the read model keeps it: before conversion, with its amount in minor units. */
interface Upcoming extends Omit<UpcomingItem, 'converted'> {
  /** The amount in minor units of `currency`; null when a recorded amount does not parse. */
  minor: number | null;
}

/**
 * The days ahead the read model derives at once: a call for `days` is served by the first
 * horizon that covers it (the briefing's 14 days and get_upcoming's 30 share one), so a household
 * keeps at most four series a day, however many lengths are asked for.
 */
const HORIZONS = [7, 31, 92, 366] as const;

function horizonFor(days: number): number {
  return HORIZONS.find((h) => h >= days) ?? days;
}

/**
 * Every subscription's upcoming items in [today, today + horizon], by date, kind and name (the
 * household's, for the day: see core/ops/shared/readModel.ts), each item depending on its own
 * subscription only, so a caller keeps those it may see and the order stays.
 */
function upcomingOf(ctx: OpContext, horizon: number): Promise<readonly Upcoming[]> {
  return modelRead(ctx, `upcoming:${horizon}`, async () => {
    const from = ctx.today;
    const to = addDays(from, horizon);
    const candidates = (await householdRows(ctx)).filter((s) => mayHaveUpcoming(s, from));
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
    const items: Upcoming[] = [];
    for (const charge of charges) {
      const parsed = parseAmount(charge.amount, charge.currency);
      items.push({
        date: charge.due_date,
        kind: 'charge',
        subscription_id: charge.subscription_id,
        subscription_name: charge.subscription_name,
        status: charge.status === 'paid' ? 'paid' : 'expected',
        amount: charge.amount,
        currency: charge.currency,
        minor: parsed.ok ? parsed.minor : null,
      });
    }
    for (const sub of candidates) {
      if (sub.status === 'trial' && sub.trial_ends_on !== null)
        pushEvent(items, sub, 'trial_end', sub.trial_ends_on, from, to);
      if (sub.status !== 'cancelled' && sub.contract_ends_on !== null)
        pushEvent(
          items,
          sub,
          'notice_deadline',
          addDays(sub.contract_ends_on, -(sub.notice_days ?? 0)),
          from,
          to,
        );
    }
    return items.sort(
      (a, b) =>
        compareText(a.date, b.date) ||
        KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        (order.get(a.subscription_id) ?? 0) - (order.get(b.subscription_id) ?? 0),
    );
  });
}

/** A trial end or notice deadline in [from, to], priced at the subscription's price per cycle. */
function pushEvent(
  items: Upcoming[],
  sub: InsightRow,
  kind: 'trial_end' | 'notice_deadline',
  date: IsoDate,
  from: IsoDate,
  to: IsoDate,
): void {
  if (date < from || date > to) return;
  items.push({
    date,
    kind,
    subscription_id: sub.id,
    subscription_name: sub.name,
    status: null,
    amount: formatAmount(sub.amount_minor, sub.currency),
    currency: sub.currency,
    minor: sub.amount_minor,
  });
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
