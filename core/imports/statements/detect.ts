import type { Cycle } from '../../domain/cycles.ts';
import { nthOccurrence } from '../../domain/cycles.ts';
import { daysBetween } from '../../domain/dates.ts';
import { knownName, knownService } from './knownServices.ts';
import { isBankChargeText, isMarkedRecurring } from './lineWords.ts';
import { merchantKey, merchantNameOf, transactionKey } from './merchant.ts';
import type { StatementTransaction } from './types.ts';

/**
 * Finds subscriptions in a statement without any model: money out grouped by merchant (see
 * `merchantKey`), then series whose gaps fit one billing cycle, allowing for weekends and month
 * ends (a few days either way) and for one missed charge, and whose amounts are steady, change in
 * steps (a price rise), or move a little (a foreign-currency price converted at each charge).
 * A charge refunded in full within two weeks is not a charge. Amounts as in StatementTransaction.
 * A well-known subscription service (knownServices.ts) seen without a series (a statement of
 * one month) is proposed too, at its usual cycle and a lower confidence: the person checks it;
 * so is a payment the bank itself marks as recurring ("RECURNG PMT"), as monthly.
 * The bank's own charges (account fees, interest: lineWords.ts) are never candidates, however
 * regular: they are the price of the account, not a subscription.
 */

export interface CandidateCharge {
  date: string;
  /** Positive, in ten-thousandths. */
  amount: number;
}

export interface PriceStep {
  date: string;
  from: number;
  to: number;
}

/** Why a candidate was proposed, as codes the op words in the reader's language. */
export type Reason =
  | { code: 'charges'; count: number }
  | { code: 'regular'; tolerance_days: number }
  | { code: 'missed'; count: number }
  | { code: 'steady' }
  | { code: 'price_steps'; count: number }
  | { code: 'varies'; percent: number }
  /** No series, but a known subscription service, charged `count` times in the statement. */
  | { code: 'known_service'; count: number }
  /** No series, but the bank marks the payment as recurring ("RECURNG PMT"), seen `count` times. */
  | { code: 'marked_recurring'; count: number };

export interface DetectedSubscription {
  key: string;
  name: string;
  currency: string | null;
  cycle: Cycle;
  /** The latest price, positive, in ten-thousandths. */
  amount: number;
  first_charge: string;
  last_charge: string;
  next_expected: string;
  charges: CandidateCharge[];
  price_steps: PriceStep[];
  /** 0..1 */
  confidence: number;
  reasons: Reason[];
}

interface CycleFit {
  cycle: Cycle;
  days: number;
  tolerance: number;
  /** Fewest charges a series needs in a statement to count. */
  min: number;
}

/** Cycles a household subscription has, shortest first, with how far a charge may drift. */
const CYCLES: readonly CycleFit[] = [
  { cycle: { unit: 'week', every: 1 }, days: 7, tolerance: 2, min: 4 },
  { cycle: { unit: 'week', every: 2 }, days: 14, tolerance: 3, min: 3 },
  { cycle: { unit: 'month', every: 1 }, days: 30.44, tolerance: 5, min: 3 },
  { cycle: { unit: 'month', every: 2 }, days: 60.88, tolerance: 7, min: 3 },
  { cycle: { unit: 'month', every: 3 }, days: 91.31, tolerance: 8, min: 2 },
  { cycle: { unit: 'month', every: 6 }, days: 182.62, tolerance: 10, min: 2 },
  { cycle: { unit: 'year', every: 1 }, days: 365.24, tolerance: 12, min: 2 },
];

/** Relative difference under which two amounts are the same price. */
const SAME_PRICE = 0.005;
/** Spread (max/min - 1) of amounts still read as one price moving with an exchange rate. */
const FX_SPREAD = 0.12;

interface Fit {
  fit: CycleFit;
  missed: number;
  worst: number;
}

function fitCycle(dates: readonly string[]): Fit | null {
  const gaps: number[] = [];
  for (let i = 1; i < dates.length; i++) gaps.push(daysBetween(dates[i - 1] ?? '', dates[i] ?? ''));
  let best: Fit | null = null;
  for (const fit of CYCLES) {
    if (dates.length < fit.min) continue;
    let missed = 0;
    let worst = 0;
    let ok = true;
    for (const gap of gaps) {
      const k = Math.max(1, Math.round(gap / fit.days));
      const off = Math.abs(gap - k * fit.days);
      // One missed charge in a row at most; and the drift grows a little with the gap.
      if (k > 2 || off > fit.tolerance * (k === 2 ? 1.5 : 1)) {
        ok = false;
        break;
      }
      missed += k - 1;
      worst = Math.max(worst, off);
    }
    if (!ok || missed > Math.max(1, Math.floor(dates.length / 4))) continue;
    if (!best || missed < best.missed || (missed === best.missed && fit.days > best.fit.days))
      best = { fit, missed, worst };
  }
  return best;
}

type PriceShape =
  { kind: 'steady' } | { kind: 'steps'; steps: PriceStep[] } | { kind: 'varies'; spread: number };

const same = (a: number, b: number) => Math.abs(a - b) <= SAME_PRICE * Math.max(a, b);

function priceShape(charges: readonly CandidateCharge[]): PriceShape | null {
  const steps: PriceStep[] = [];
  for (let i = 1; i < charges.length; i++) {
    const a = charges[i - 1];
    const b = charges[i];
    if (a && b && !same(a.amount, b.amount))
      steps.push({ date: b.date, from: a.amount, to: b.amount });
  }
  if (steps.length === 0) return { kind: 'steady' };
  // A price that changes at most twice and then holds (each price seen twice, the last one may be new).
  if (
    steps.length <= 2 &&
    steps.every((s) => s.to > s.from) &&
    charges.length >= steps.length * 2 + 1
  )
    return { kind: 'steps', steps };
  const amounts = charges.map((c) => c.amount);
  const spread = Math.max(...amounts) / Math.min(...amounts) - 1;
  return spread <= FX_SPREAD ? { kind: 'varies', spread } : null;
}

/** Removes charges refunded in full (same merchant, same amount, within 14 days after). */
function withoutRefunded(debits: CandidateCharge[], refunds: CandidateCharge[]): CandidateCharge[] {
  const left = [...debits];
  for (const r of refunds) {
    const i = left.findIndex(
      (d) => d.amount === r.amount && d.date <= r.date && daysBetween(d.date, r.date) <= 14,
    );
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** Splits charges into groups of similar amounts, so two plans at one merchant are two series. */
function byAmountBands(charges: readonly CandidateCharge[]): CandidateCharge[][] {
  const sorted = [...charges].sort((a, b) => a.amount - b.amount);
  const bands: CandidateCharge[][] = [];
  for (const c of sorted) {
    const band = bands.at(-1);
    const last = band?.at(-1);
    if (band && last && c.amount <= last.amount * 1.3) band.push(c);
    else bands.push([c]);
  }
  return bands.map((b) => b.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0)));
}

/**
 * The series in `charges`, or null. `strict` (a band of a merchant's charges, see byAmountBands):
 * the amounts must hold or step, not merely stay close, since a shop's many purchases always hold
 * a few that happen to look regular.
 */
function evaluate(
  key: string,
  name: string,
  currency: string | null,
  charges: CandidateCharge[],
  strict: boolean,
): DetectedSubscription | null {
  // One charge a day: a second one the same day is another purchase.
  const daily: CandidateCharge[] = [];
  for (const c of charges) if (daily.at(-1)?.date !== c.date) daily.push(c);
  const fit = fitCycle(daily.map((c) => c.date));
  if (!fit) return null;
  const shape = priceShape(daily);
  // Two charges prove little: only one same price twice, a cycle apart, counts.
  if (!shape || ((strict || daily.length === 2) && shape.kind === 'varies')) return null;
  const first = daily[0];
  const last = daily.at(-1);
  if (!first || !last) return null;
  const reasons: Reason[] = [
    { code: 'charges', count: daily.length },
    { code: 'regular', tolerance_days: Math.round(fit.worst) },
  ];
  if (fit.missed > 0) reasons.push({ code: 'missed', count: fit.missed });
  let confidence =
    0.55 + 0.07 * Math.min(daily.length - fit.fit.min, 5) - 0.1 * fit.missed - 0.02 * fit.worst;
  if (shape.kind === 'steady') {
    reasons.push({ code: 'steady' });
    confidence += 0.15;
  } else if (shape.kind === 'steps')
    reasons.push({ code: 'price_steps', count: shape.steps.length });
  else {
    reasons.push({ code: 'varies', percent: Math.round(shape.spread * 100) });
    confidence -= 0.1;
  }
  return {
    key,
    name,
    currency,
    cycle: fit.fit.cycle,
    amount: last.amount,
    first_charge: first.date,
    last_charge: last.date,
    next_expected: nthOccurrence(last.date, fit.fit.cycle, 1),
    charges: daily,
    price_steps: shape.kind === 'steps' ? shape.steps : [],
    confidence: Math.round(Math.min(0.99, Math.max(0.2, confidence)) * 100) / 100,
    reasons,
  };
}

/** Below every repeated series' (which start at 0.55 less drift): a single charge proves little. */
const KNOWN_SERVICE_CONFIDENCE = 0.4;

/**
 * A known service's latest charge as a candidate at its usual cycle, or null for other merchants,
 * and null when the statement (`span`, its first and last dates) is long enough that the charge
 * before or after would have been in it at that cycle: its absence says the guess is wrong
 * (the service is billed yearly, or was cancelled), so only "once is all it could show" counts.
 */
function knownSingle(
  key: string,
  name: string,
  currency: string | null,
  charges: readonly CandidateCharge[],
  span: { from: string; to: string },
  marked: boolean,
): DetectedSubscription | null {
  // A known service at its usual cycle; a payment the bank marks recurring, monthly (a guess the
  // person checks, as for a known service).
  const known = knownService(key) ?? (marked ? { cycle: { unit: 'month', every: 1 } } : null);
  const last = charges.at(-1);
  const first = charges[0];
  if (!known || !last || !first) return null;
  const fit = CYCLES.find(
    (c) => c.cycle.unit === known.cycle.unit && c.cycle.every === known.cycle.every,
  );
  const room = (fit?.days ?? 30.44) + (fit?.tolerance ?? 5);
  if (daysBetween(span.from, first.date) >= room || daysBetween(last.date, span.to) >= room)
    return null;
  return {
    key,
    name,
    currency,
    cycle: known.cycle,
    amount: last.amount,
    first_charge: first.date,
    last_charge: last.date,
    next_expected: nthOccurrence(last.date, known.cycle, 1),
    charges: [last],
    price_steps: [],
    confidence: KNOWN_SERVICE_CONFIDENCE,
    reasons: [
      knownService(key)
        ? { code: 'known_service', count: charges.length }
        : { code: 'marked_recurring', count: charges.length },
    ],
  };
}

export function detectSubscriptions(
  transactions: readonly StatementTransaction[],
): DetectedSubscription[] {
  const groups = new Map<
    string,
    {
      key: string;
      currency: string | null;
      debits: CandidateCharge[];
      refunds: CandidateCharge[];
      /** The texts of its first debits, to look for the bank's recurring mark when it is needed. */
      texts: string[];
      /** What named its first debits (the payee, else the memo: what the key came from). */
      named: string[];
    }
  >();
  // Statements repeat their texts (a subscription, a shop): each distinct text is keyed once.
  const keys = new Map<string, string>();
  const keyOf = (payee: string | null, memo: string): string => {
    const text = `${payee ?? '\u0000'}\u0001${memo}`;
    let key = keys.get(text);
    if (key === undefined) {
      key = transactionKey(payee, memo);
      keys.set(text, key);
    }
    return key;
  };
  // The bank's own charges (its payee or its text says fee or interest) join no group.
  const charges = new Map<string, boolean>();
  const bankCharge = (text: string): boolean => {
    let is = charges.get(text);
    if (is === undefined) {
      is = isBankChargeText(text) && !knownService(merchantKey(text));
      charges.set(text, is);
    }
    return is;
  };
  for (const t of transactions) {
    if (t.amount === 0) continue;
    if ((t.payee !== null && bankCharge(t.payee)) || bankCharge(t.memo)) continue;
    const key = keyOf(t.payee, t.memo);
    if (key === '') continue;
    const id = `${key}\u0000${t.currency ?? ''}`;
    let g = groups.get(id);
    if (!g) {
      g = { key, currency: t.currency, debits: [], refunds: [], texts: [], named: [] };
      groups.set(id, g);
    }
    if (t.amount < 0 && g.texts.length < 3) {
      g.texts.push(`${t.payee ?? ''} ${t.memo}`);
      g.named.push(t.payee !== null && keyOf(t.payee, '') !== '' ? t.payee : t.memo);
    }
    (t.amount < 0 ? g.debits : g.refunds).push({ date: t.date, amount: Math.abs(t.amount) });
  }
  const dates = transactions
    .filter((t) => t.amount !== 0)
    .map((t) => t.date)
    .sort();
  const span = { from: dates[0] ?? '', to: dates.at(-1) ?? '' };
  const found: DetectedSubscription[] = [];
  for (const g of groups.values()) {
    const debits = withoutRefunded(
      g.debits.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
      g.refunds,
    );
    // Named as the service calls itself, else as the statement spells the merchant.
    const name = knownName(g.key) ?? merchantNameOf(g.key, g.named, g.texts[0] ?? '');
    const single = (): void => {
      const s = knownSingle(g.key, name, g.currency, debits, span, g.texts.some(isMarkedRecurring));
      if (s) found.push(s);
    };
    if (debits.length < 2) {
      single();
      continue;
    }
    const whole = evaluate(g.key, name, g.currency, debits, false);
    if (whole) {
      found.push(whole);
      continue;
    }
    const bands = byAmountBands(debits);
    if (bands.length < 2) {
      single();
      continue;
    }
    const before = found.length;
    for (const band of bands) {
      // A band among many other purchases at the same place is a shop, not a plan.
      if (debits.length - band.length > band.length * 2) continue;
      const s = evaluate(g.key, name, g.currency, band, true);
      if (s)
        found.push({
          ...s,
          key: `${g.key} ${found.filter((f) => f.key.startsWith(g.key)).length + 1}`,
        });
    }
    if (found.length === before) single();
  }
  return found.sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
}
