import { z } from 'zod';

import { chargesPerMonth } from '../../../domain/cycles.ts';
import { addDays, addMonths } from '../../../domain/dates.ts';
import { formatAmount } from '../../../domain/money.ts';
import { formatDate } from '../../../i18n/dates.ts';
import { type Locale, t } from '../../../i18n/index.ts';
import { decimal, money } from '../../../i18n/numbers.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { householdRows, modelRead, nameOrder } from '../../shared/readModel.ts';
import { cycleOf, monthlyMinor, type InsightRow } from '../../../store/repos/subscriptions.ts';
import type { Converter } from './convert.ts';
import { priceChangesBetween, RUNNING } from './load.ts';

export const SAVING_KINDS = [
  'trial_converting',
  'duplicate',
  'price_increase',
  'yearly_vs_monthly',
] as const;
export type SavingKind = (typeof SAVING_KINDS)[number];

export const Finding = z.object({
  kind: z
    .enum(SAVING_KINDS)
    .describe(
      'trial_converting: a trial turns paid within 7 days. duplicate: the same service (name or vendor) twice. price_increase: the price went up in the last 12 months. yearly_vs_monthly: paid monthly for over 6 months; a yearly plan may be cheaper.',
    ),
  subscription_ids: z.array(z.string()),
  explanation: z.string().describe("One line in the reader's language."),
  estimated_yearly_saving: z
    .string()
    .nullable()
    .describe(
      'In the household currency; null when it cannot be computed (such as an unknown yearly price or a missing rate).',
    ),
});
export type Finding = z.infer<typeof Finding>;

/**
 * What a finding's sentence says, as data (amounts as decimal strings in `currency`, the
 * subscription's; dates `YYYY-MM-DD`), so a screen can write it in its reader's own formats. A
 * field the kind does not use is null (`names` is always the subscriptions named, in order).
 */
export const FindingFacts = z.object({
  names: z.array(z.string()).describe('The subscriptions the note names, in its order.'),
  date: z
    .string()
    .nullable()
    .describe(
      "YYYY-MM-DD: the trial's end (trial_converting), the price change (price_increase), the first charge (yearly_vs_monthly).",
    ),
  currency: z.string().nullable().describe('The currency of the amounts below.'),
  old_amount: z.string().nullable().describe('price_increase: the price before.'),
  new_amount: z.string().nullable().describe('price_increase: the price after.'),
  yearly: z
    .string()
    .nullable()
    .describe(
      'The yearly cost (trial_converting, yearly_vs_monthly) or the extra a year (price_increase).',
    ),
  percent: z
    .string()
    .nullable()
    .describe('price_increase: the rise in percent ("12.5"); null from a price of 0.'),
});
export type FindingFacts = z.infer<typeof FindingFacts>;

const NO_FACTS: Omit<FindingFacts, 'names'> = {
  date: null,
  currency: null,
  old_amount: null,
  new_amount: null,
  yearly: null,
  percent: null,
};

/** Findings are listed by kind in this order (then by saving, largest first). */
const KIND_RANK: Record<SavingKind, number> = {
  trial_converting: 0,
  duplicate: 1,
  price_increase: 2,
  yearly_vs_monthly: 3,
};

/** Days ahead in which a converting trial needs attention. */
export const TRIAL_WINDOW_DAYS = 7;

/** A finding before its sentence is written: only the ones returned are formatted. */
interface Scored {
  kind: SavingKind;
  ids: string[];
  key: string;
  params: () => Record<string, string | number>;
  facts: () => FindingFacts;
  saving: number | null;
}

/**
 * Savings and things needing attention among the running (active or trial) subscriptions the
 * actor sees: trials converting soon, duplicated services, price increases of the last 12 months
 * and long-running monthly plans. `subs` must be those subscriptions. Savings are yearly, in the
 * household currency at today's rates; amounts without a rate leave the saving null. `count` is
 * how many there are; only the first `limit` are formatted and returned (a briefing lists 20 of
 * hundreds: writing every sentence and amount would be most of its work). `factsOf(i)`: what
 * `findings[i]` says, as data (`FindingFacts`).
 */
export async function collectSavings(
  ctx: OpContext,
  subs: readonly InsightRow[],
  converter: Converter,
  limit = Infinity,
): Promise<{ count: number; findings: Finding[]; factsOf: (index: number) => FindingFacts }> {
  const running = subs.filter((s) => RUNNING.includes(s.status));
  const locale = ctx.actor.locale;
  const today = ctx.today;
  // Sentences for people: amounts and dates in the reader's way ("119,88 EUR", "vie, 6 mar 2026").
  const amount = (minor: number, currency: string): string => readerMoney(minor, currency, locale);
  const day = (iso: string): string => formatDate(iso, locale);
  // A saving without a rate stays null; its subscription is listed as left out once, with its yearly cost.
  const unconverted = new Map<string, InsightRow>();
  const inTarget = (sub: InsightRow, minor: number): number | null => {
    const converted = converter.apply(minor, sub.currency, today);
    if (converted === null) unconverted.set(sub.id, sub);
    return converted;
  };
  const yearly = (sub: InsightRow): number | null => inTarget(sub, monthlyMinor(sub) * 12);
  const out: Scored[] = [];
  const push = (
    kind: SavingKind,
    ids: string[],
    key: string,
    params: () => Record<string, string | number>,
    facts: () => FindingFacts,
    saving: number | null,
  ): void => {
    out.push({ kind, ids, key, params, facts, saving });
  };
  const decimalOf = (minor: number, currency: string): string => formatAmount(minor, currency);

  const trialEnd = addDays(today, TRIAL_WINDOW_DAYS);
  for (const sub of running) {
    if (
      sub.status !== 'trial' ||
      sub.trial_ends_on === null ||
      sub.trial_ends_on < today ||
      sub.trial_ends_on > trialEnd
    )
      continue;
    const ends = sub.trial_ends_on;
    push(
      'trial_converting',
      [sub.id],
      'insights.savings.trial_converting',
      () => ({
        name: sub.name,
        date: day(ends),
        yearly: amount(Math.round(monthlyMinor(sub) * 12), sub.currency),
      }),
      () => ({
        ...NO_FACTS,
        names: [sub.name],
        date: ends,
        currency: sub.currency,
        yearly: decimalOf(Math.round(monthlyMinor(sub) * 12), sub.currency),
      }),
      yearly(sub),
    );
  }

  const [keys, rank] = await Promise.all([duplicateKeys(ctx), nameOrder(ctx)]);
  for (const group of duplicateGroups(running, keys, rank)) {
    const costs = group.map(yearly);
    const known = costs.every((c) => c !== null) ? (costs as number[]) : null;
    push(
      'duplicate',
      group.map((s) => s.id),
      'insights.savings.duplicate',
      () => ({ names: group.map((s) => s.name).join(', '), count: group.length }),
      () => ({ ...NO_FACTS, names: group.map((s) => s.name) }),
      known ? known.reduce((a, b) => a + b, 0) - Math.max(...known) : null,
    );
  }

  const since = addMonths(today, -12);
  const byId = new Map(running.map((s) => [s.id, s]));
  // Only each subscription's latest change counts: an earlier rise that a later change replaced
  // (raised again, or lowered) no longer says what it costs now. Oldest first, so the last wins.
  const latest = new Map<string, Awaited<ReturnType<typeof priceChangesBetween>>[number]>();
  for (const change of await priceChangesBetween(ctx, RUNNING, since, today))
    latest.set(change.subscription_id, change);
  for (const change of latest.values()) {
    const sub = byId.get(change.subscription_id);
    if (
      !sub ||
      change.new_amount_minor <= change.old_amount_minor ||
      change.currency !== sub.currency
    )
      continue;
    const extra =
      (change.new_amount_minor - change.old_amount_minor) * chargesPerMonth(cycleOf(sub)) * 12;
    const percent =
      change.old_amount_minor === 0
        ? '∞'
        : String(
            Math.round(
              ((change.new_amount_minor - change.old_amount_minor) / change.old_amount_minor) *
                1000,
            ) / 10,
          );
    push(
      'price_increase',
      [sub.id],
      'insights.savings.price_increase',
      () => ({
        name: sub.name,
        old: amount(change.old_amount_minor, change.currency),
        new: amount(change.new_amount_minor, change.currency),
        date: day(change.effective_date),
        percent: decimal(percent, locale),
        yearly: amount(Math.round(extra), change.currency),
      }),
      () => ({
        names: [sub.name],
        date: change.effective_date,
        currency: change.currency,
        old_amount: decimalOf(change.old_amount_minor, change.currency),
        new_amount: decimalOf(change.new_amount_minor, change.currency),
        yearly: decimalOf(Math.round(extra), change.currency),
        percent: percent === '∞' ? null : percent,
      }),
      inTarget(sub, extra),
    );
  }

  const longAgo = addMonths(today, -6);
  for (const sub of running) {
    if (
      sub.status !== 'active' ||
      sub.cycle_unit !== 'month' ||
      sub.cycle_every !== 1 ||
      sub.first_charge_date > longAgo
    )
      continue;
    push(
      'yearly_vs_monthly',
      [sub.id],
      'insights.savings.yearly_vs_monthly',
      () => ({
        name: sub.name,
        since: day(sub.first_charge_date),
        yearly: amount(sub.amount_minor * 12, sub.currency),
      }),
      () => ({
        ...NO_FACTS,
        names: [sub.name],
        date: sub.first_charge_date,
        currency: sub.currency,
        yearly: decimalOf(sub.amount_minor * 12, sub.currency),
      }),
      null,
    );
  }

  for (const sub of unconverted.values())
    converter.omit(sub.id, sub.currency, monthlyMinor(sub) * 12);
  out.sort((a, b) => KIND_RANK[a.kind] - KIND_RANK[b.kind] || (b.saving ?? -1) - (a.saving ?? -1));
  const listed = out.slice(0, limit);
  const findings = listed.map((s): Finding => ({
    kind: s.kind,
    subscription_ids: s.ids,
    explanation: t(locale, s.key, s.params()),
    estimated_yearly_saving:
      s.saving === null ? null : formatAmount(Math.round(s.saving), converter.target),
  }));
  // The facts of `findings[index]`, made only when a caller shows them (get_context's screen).
  const factsOf = (index: number): FindingFacts => {
    const scored = listed[index];
    if (!scored) throw new Error(`no finding ${index} (${listed.length} listed)`);
    return scored.facts();
  };
  return { count: out.length, findings, factsOf };
}

/** An amount in minor units as a reader writes it ("119.88 EUR", "119,88 EUR"). */
function readerMoney(minor: number, currency: string, locale: Locale): string {
  return money(formatAmount(minor, currency), currency, locale);
}

/** A comparable form of a name: accents, case, spaces and punctuation dropped ("Disney+ " is "disney"). */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The keys a subscription is grouped by when looking for duplicates: its normalised name
 * (`n:…`) and vendor (`v:…`), those not empty, and only those another subscription of the
 * household shares (a key of one subscription never makes a group, whoever reads). Kept in the
 * household's read model for the day (core/ops/shared/readModel.ts): normalising 10,000 names
 * is most of the briefing's search, and most subscriptions then have no key to group by.
 */
function duplicateKeys(ctx: OpContext): Promise<ReadonlyMap<string, readonly string[]>> {
  return modelRead(ctx, 'duplicate_keys', async () => {
    const own = new Map<string, string[]>();
    const uses = new Map<string, number>();
    for (const sub of await householdRows(ctx)) {
      const name = normalizeName(sub.name);
      const vendor = sub.vendor === null ? '' : normalizeName(sub.vendor);
      const keys = [name && `n:${name}`, vendor && `v:${vendor}`].filter((k) => k !== '');
      own.set(sub.id, keys);
      for (const key of keys) uses.set(key, (uses.get(key) ?? 0) + 1);
    }
    const shared = new Map<string, string[]>();
    for (const [id, keys] of own) {
      const kept = keys.filter((key) => (uses.get(key) ?? 0) > 1);
      if (kept.length > 0) shared.set(id, kept);
    }
    return shared;
  });
}

/**
 * Groups of two or more subscriptions with the same normalised name or the same normalised
 * vendor (`keys`, by duplicateKeys), each by name then id (`rank`, the read model's nameOrder);
 * a group found both ways is reported once.
 */
export function duplicateGroups(
  subs: readonly InsightRow[],
  keys: ReadonlyMap<string, readonly string[]>,
  rank: ReadonlyMap<string, number>,
): InsightRow[][] {
  const groups = new Map<string, InsightRow[]>();
  for (const sub of subs) {
    for (const key of keys.get(sub.id) ?? []) {
      const list = groups.get(key);
      if (list) list.push(sub);
      else groups.set(key, [sub]);
    }
  }
  const seen = new Set<string>();
  const out: InsightRow[][] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
    const signature = sorted.map((s) => s.id).join('|');
    if (seen.has(signature)) continue;
    seen.add(signature);
    out.push(sorted);
  }
  return out;
}
