import { daysBetween } from '../../../domain/dates.ts';
import { minorUnits } from '../../../domain/currencies.ts';
import { merchantKey } from '../../../imports/statements/merchant.ts';

/**
 * Matching a statement's lines to a household's charges, the rules reconcile_statement states:
 * a line is a charge when its date is within 2 days of the charge's, its amount within 1% or 0.50
 * (whichever is more, in the line's currency) of the expected price converted to that currency,
 * and its merchant shares a word with the subscription's name or vendor, both normalised by the
 * statement reader's `merchantKey`. With exactly one of the three off it needs a person's review
 * (a date off by at most REVIEW_DAYS). Each charge and each line is used once: full matches first,
 * closest first; then reviews, the ones whose merchant agrees first. Pure code, no I/O.
 */

export const DATE_DAYS = 2;
/** How far a date may be off and still be offered for review (a charge taken late). */
export const REVIEW_DAYS = 7;
const AMOUNT_SHARE = 0.01;
/** 0.50 in the currency's units. */
const AMOUNT_UNITS = 0.5;

/** Words too common in subscriptions' names to say two merchants are one. */
const GENERIC = new Set([
  'plus',
  'premium',
  'family',
  'pro',
  'tv',
  'music',
  'app',
  'apps',
  'online',
  'digital',
  'service',
  'services',
  'subscription',
  'monthly',
  'annual',
  'yearly',
  'plan',
  'club',
  'store',
  'shop',
  'prime',
]);

/** The merchant words of a text, after the statement reader's normalisation. */
export function merchantTokens(text: string): Set<string> {
  return new Set(
    merchantKey(text)
      .split(' ')
      .filter((w) => w.length >= 3 && !GENERIC.has(w)),
  );
}

export interface ChargeToMatch {
  /** Any stable key of the charge (subscription and date). */
  key: string;
  date: string;
  /** The expected price in the line currency's minor units, or null when no rate converts it. */
  expectedIn: (currency: string) => number | null;
  tokens: ReadonlySet<string>;
}

export interface LineToMatch {
  index: number;
  date: string;
  /** Money out, positive, in the line currency's minor units. */
  minor: number;
  currency: string;
  tokens: ReadonlySet<string>;
}

export type Off = 'date' | 'amount' | 'merchant';

export interface Pairing {
  charge: ChargeToMatch;
  line: LineToMatch;
  /** null: matched; else the one criterion that is off. */
  off: Off | null;
  days: number;
}

/** Whether an amount is within 1% or 0.50 of the expected one (both in one currency's minor units). */
export function amountAgrees(
  expectedMinor: number,
  actualMinor: number,
  currency: string,
): boolean {
  const units = 10 ** minorUnits(currency);
  const tolerance = Math.max(Math.abs(expectedMinor) * AMOUNT_SHARE, AMOUNT_UNITS * units);
  return Math.abs(actualMinor - expectedMinor) <= tolerance + 1e-9;
}

function shares(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const w of a) if (b.has(w)) return true;
  return false;
}

interface Scored extends Pairing {
  gap: number;
}

/** The pairings of charges and lines: each charge and each line in at most one. */
export function pairCharges(
  charges: readonly ChargeToMatch[],
  lines: readonly LineToMatch[],
): Pairing[] {
  const byDay = new Map<string, LineToMatch[]>();
  for (const line of lines) {
    const list = byDay.get(line.date);
    if (list) list.push(line);
    else byDay.set(line.date, [line]);
  }
  const days = [...byDay.keys()];
  const scored: Scored[] = [];
  for (const charge of charges) {
    for (const day of days) {
      const d = Math.abs(daysBetween(charge.date, day));
      if (d > REVIEW_DAYS) continue;
      for (const line of byDay.get(day) ?? []) {
        const expected = charge.expectedIn(line.currency);
        const dateOk = d <= DATE_DAYS;
        const amountOk = expected !== null && amountAgrees(expected, line.minor, line.currency);
        const merchantOk = shares(charge.tokens, line.tokens);
        const offs: Off[] = [];
        if (!dateOk) offs.push('date');
        if (!amountOk) offs.push('amount');
        if (!merchantOk) offs.push('merchant');
        if (offs.length > 1) continue;
        const gap = expected === null ? Number.MAX_SAFE_INTEGER : Math.abs(line.minor - expected);
        scored.push({ charge, line, off: offs[0] ?? null, days: d, gap });
      }
    }
  }
  // Matches first; then reviews whose merchant agrees (a late or re-priced charge) before a
  // same-day, same-amount line of another name; the closest in days, then in money, first.
  const rank = (p: Scored) => (p.off === null ? 0 : p.off === 'merchant' ? 2 : 1);
  scored.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.days - b.days ||
      a.gap - b.gap ||
      a.line.index - b.line.index ||
      a.charge.key.localeCompare(b.charge.key),
  );
  const usedCharges = new Set<string>();
  const usedLines = new Set<number>();
  const out: Pairing[] = [];
  for (const p of scored) {
    if (usedCharges.has(p.charge.key) || usedLines.has(p.line.index)) continue;
    usedCharges.add(p.charge.key);
    usedLines.add(p.line.index);
    out.push({ charge: p.charge, line: p.line, off: p.off, days: p.days });
  }
  return out;
}
