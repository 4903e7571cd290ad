import { z } from 'zod';

import { nextOccurrence } from '../../../domain/cycles.ts';
import { type InputIssue, isOpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { parseInput } from '../../../kernel/validation.ts';
import type { SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { t } from '../../../i18n/index.ts';
import { toMinor } from '../../shared/context.ts';
import {
  Amount,
  Currency,
  Cycle,
  IsoDate,
  Name,
  Notes,
  ShortName,
  SubscriptionStatus,
  Url,
} from '../../../domain/schemas.ts';
import { checkDates, ShareInput } from '../../subscriptions/_lib/fields.ts';

/**
 * One subscription as an import reads it: the shape export_data writes (ids, timestamps and
 * computed fields are ignored), with everything optional that has a sensible default, so a
 * hand-written or converted (Wallos) item is checked by the same rules.
 */
export const ImportSubscription = z.object({
  member_id: z.string().nullable().optional(),
  name: Name,
  vendor: z.string().trim().max(120).nullable().optional(),
  amount: Amount,
  currency: Currency,
  cycle: Cycle,
  first_charge_date: IsoDate,
  status: SubscriptionStatus.default('active'),
  trial_ends_on: IsoDate.nullable().optional(),
  paused_on: IsoDate.nullable().optional(),
  cancelled_on: IsoDate.nullable().optional(),
  contract_ends_on: IsoDate.nullable().optional(),
  notice_days: z.int().min(0).max(365).nullable().optional(),
  category: ShortName.nullable().optional(),
  payment_method: ShortName.nullable().optional(),
  tags: z.array(ShortName).max(20).default([]),
  notes: Notes.nullable().optional(),
  url: Url.nullable().optional(),
  cancel_url: Url.nullable().optional(),
  private: z.boolean().default(false),
  shares: z.array(ShareInput).max(20).default([]),
  charges: z
    .array(
      z.object({
        due_date: IsoDate,
        status: z.enum(['paid', 'skipped']),
        amount: Amount.nullable().optional(),
        currency: Currency.optional(),
        note: z.string().max(500).nullable().optional(),
        recorded_at: z.iso.datetime().optional(),
      }),
    )
    .max(5000)
    .default([]),
  price_changes: z
    .array(
      z.object({
        effective_date: IsoDate,
        old_amount: Amount,
        new_amount: Amount,
        currency: Currency.optional(),
        created_at: z.iso.datetime().optional(),
      }),
    )
    .max(1000)
    .default([]),
});

type SubscriptionFields = Omit<
  SubscriptionRow,
  'id' | 'household_id' | 'member_id' | 'category_id' | 'payment_method_id' | 'private' | 'created_at' | 'updated_at'
>;

/** A checked item, amounts in minor units, ready to write. */
export interface ValidItem {
  fields: SubscriptionFields;
  private: boolean;
  /** The member it belonged to in the file (Exhale exports only). */
  sourceMember: string | null;
  /** The file split the cost between members (the import makes it the caller's alone). */
  splitShares: boolean;
  category: string | null;
  paymentMethod: string | null;
  tags: string[];
  hasShares: boolean;
  charges: Array<{
    due_date: string;
    status: 'paid' | 'skipped';
    amount_minor: number | null;
    currency: string;
    note: string | null;
    recorded_at: string | null;
  }>;
  priceChanges: Array<{
    effective_date: string;
    old_amount_minor: number;
    new_amount_minor: number;
    currency: string;
    created_at: string | null;
  }>;
}

export type ItemCheck = { ok: true; item: ValidItem } | { ok: false; issues: InputIssue[] };

function issuesOf(error: unknown): InputIssue[] {
  if (!isOpError(error)) throw error;
  return error.issues.length > 0 ? error.issues : [{ path: '', message: error.render('en') }];
}

/** Checks one item in full (shape, decimals per currency, shares, dates) without writing. */
export function checkItem(ctx: OpContext, raw: unknown): ItemCheck {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, issues: [{ path: '', message: t(ctx.actor.locale, 'data.import.not_an_object') }] };
  }
  let input: z.output<typeof ImportSubscription>;
  try {
    input = parseInput(ImportSubscription, raw, ctx.actor.locale);
  } catch (error) {
    return { ok: false, issues: issuesOf(error) };
  }
  const issues: InputIssue[] = [];
  const minor = (amount: string, currency: string, field: string): number => {
    try {
      return toMinor(ctx, amount, currency, field);
    } catch (error) {
      issues.push(...issuesOf(error));
      return 0;
    }
  };
  const fields: SubscriptionFields = {
    name: input.name,
    vendor: input.vendor ?? null,
    amount_minor: minor(input.amount, input.currency, 'amount'),
    currency: input.currency,
    cycle_unit: input.cycle.unit,
    cycle_every: input.cycle.every,
    first_charge_date: input.first_charge_date,
    status: input.status,
    trial_ends_on: input.trial_ends_on ?? null,
    paused_on: input.paused_on ?? null,
    cancelled_on: input.cancelled_on ?? null,
    contract_ends_on: input.contract_ends_on ?? null,
    notice_days: input.notice_days ?? null,
    notes: input.notes ?? null,
    url: input.url ?? null,
    cancel_url: input.cancel_url ?? null,
  };
  try {
    checkDates(ctx, fields);
  } catch (error) {
    issues.push(...issuesOf(error));
  }
  const charges = input.charges.map((c, i) => {
    const currency = c.currency ?? input.currency;
    const amount = c.amount === undefined || c.amount === null ? null : minor(c.amount, currency, `charges.${i}.amount`);
    return { due_date: c.due_date, status: c.status, amount_minor: amount, currency, note: c.note ?? null, recorded_at: c.recorded_at ?? null };
  });
  const seen = new Set<string>();
  const cycle = { unit: input.cycle.unit, every: input.cycle.every };
  charges.forEach((c, i) => {
    if (seen.has(c.due_date)) issues.push({ path: `charges.${i}.due_date`, message: t(ctx.actor.locale, 'data.import.charge_twice', { date: c.due_date }) });
    seen.add(c.due_date);
    // A charge beside the series would count its month twice, as mark_charge_paid refuses.
    if (nextOccurrence(input.first_charge_date, cycle, c.due_date) !== c.due_date)
      issues.push({
        path: `charges.${i}.due_date`,
        message: t(ctx.actor.locale, 'errors.input.not_in_series', { name: input.name, date: c.due_date, dates: nextOccurrence(input.first_charge_date, cycle, c.due_date) }),
      });
  });
  if (input.status === 'paused' && !input.paused_on)
    issues.push({ path: 'paused_on', message: t(ctx.actor.locale, 'data.import.paused_without_date') });
  input.price_changes.forEach((p, i) => {
    if (p.currency !== undefined && p.currency !== null && p.currency !== input.currency)
      issues.push({ path: `price_changes.${i}.currency`, message: t(ctx.actor.locale, 'data.import.price_change_currency', { currency: input.currency }) });
  });
  const priceChanges = input.price_changes.map((p, i) => {
    const currency = p.currency ?? input.currency;
    return {
      effective_date: p.effective_date,
      old_amount_minor: minor(p.old_amount, currency, `price_changes.${i}.old_amount`),
      new_amount_minor: minor(p.new_amount, currency, `price_changes.${i}.new_amount`),
      currency,
      created_at: p.created_at ?? null,
    };
  });
  if (input.shares.length > 0) {
    const total = input.shares.reduce((sum, s) => sum + Math.round(Number(s.percent) * 100), 0);
    if (total !== 10_000) issues.push({ path: 'shares', message: t(ctx.actor.locale, 'errors.input.shares_total') });
  }
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    item: {
      fields,
      private: input.private,
      sourceMember: input.member_id ?? null,
      category: input.category ?? null,
      paymentMethod: input.payment_method ?? null,
      tags: input.tags,
      hasShares: input.shares.length > 0,
      splitShares: new Set(input.shares.map((share) => share.member_id)).size > 1,
      charges,
      priceChanges,
    },
  };
}
