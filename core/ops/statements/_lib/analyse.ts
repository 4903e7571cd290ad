import { minorUnits } from '../../../domain/currencies.ts';
import { nextOccurrence, occurrencesBetween } from '../../../domain/cycles.ts';
import { formatAmount } from '../../../domain/money.ts';
import { t } from '../../../i18n/index.ts';
import {
  type DetectedSubscription,
  detectSubscriptions,
  type Reason,
} from '../../../imports/statements/detect.ts';
import { merchantKey, transactionKey } from '../../../imports/statements/merchant.ts';
import { stepReporter } from '../../../imports/statements/progress.ts';
import { currencyOfSymbol } from '../../../imports/currencySymbols.ts';
import { readStatementFile } from '../../../imports/statements/read.ts';
import type { ReadStatement, StatementTransaction } from '../../../imports/statements/types.ts';
import { OpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { type SubscriptionRow, visibleSubscriptions } from '../../../store/repos/subscriptions.ts';
import { household } from '../../shared/context.ts';
import { fingerprintOf, statementBytes } from './document.ts';
import { preselected } from './preselect.ts';
import type { CandidateView, StatementSummary } from './schemas.ts';

/** A candidate with what import_candidates needs to write it, in minor units. */
export interface Candidate {
  view: CandidateView;
  detected: DetectedSubscription;
  amountMinor: number;
  steps: Array<{ date: string; oldMinor: number; newMinor: number }>;
  tracked: SubscriptionRow | null;
}

export interface Analysis {
  summary: StatementSummary;
  candidates: Candidate[];
  transactions: number;
  /** The booked transactions read, each with its currency (reconcile_statement matches them). */
  rows: StatementTransaction[];
}

/** Ten-thousandths to the currency's minor units, rounding half away from zero. */
export function toMinorUnits(scaled: number, currency: string): number {
  const factor = 10 ** (4 - minorUnits(currency));
  return Math.sign(scaled) * Math.round(Math.abs(scaled) / factor);
}

const money = (scaled: number, currency: string) =>
  formatAmount(toMinorUnits(scaled, currency), currency);

/** The id a candidate keeps between read_statement and import_candidates: merchant and cycle. */
function candidateId(d: DetectedSubscription): string {
  return `${d.key.replace(/\s+/g, '-')}:${d.cycle.unit}:${d.cycle.every}`.slice(0, 90);
}

function firstWord(key: string): string {
  return key.split(' ')[0] ?? '';
}

/** The tracked subscription a merchant key is, by name or vendor: same key, or same first word of four letters or more. */
function sameMerchant(key: string, sub: SubscriptionRow): boolean {
  for (const text of [sub.name, sub.vendor ?? '']) {
    const other = merchantKey(text);
    if (other === '') continue;
    if (other === key) return true;
    const word = firstWord(key);
    if (word.length >= 4 && word === firstWord(other)) return true;
  }
  return false;
}

function why(ctx: OpContext, d: DetectedSubscription): string {
  const cycle = t(ctx.actor.locale, `statements.cycle.${d.cycle.unit}.${d.cycle.every}`);
  const part = (r: Reason): string => {
    switch (r.code) {
      case 'charges':
        return t(ctx.actor.locale, 'statements.why.charges', { count: r.count, cycle });
      case 'regular':
        return t(
          ctx.actor.locale,
          r.tolerance_days === 1 ? 'statements.why.regular_one' : 'statements.why.regular',
          { days: r.tolerance_days },
        );
      case 'missed':
        return t(
          ctx.actor.locale,
          r.count === 1 ? 'statements.why.missed_one' : 'statements.why.missed',
          { count: r.count },
        );
      case 'steady':
        return t(ctx.actor.locale, 'statements.why.steady');
      case 'price_steps':
        return t(
          ctx.actor.locale,
          r.count === 1 ? 'statements.why.price_steps_one' : 'statements.why.price_steps',
          { count: r.count },
        );
      case 'varies':
        return t(ctx.actor.locale, 'statements.why.varies', { percent: r.percent });
      case 'known_service':
        return t(
          ctx.actor.locale,
          r.count === 1 ? 'statementHints.why.known_once' : 'statementHints.why.known_times',
          { count: r.count, cycle },
        );
      case 'marked_recurring':
        return t(
          ctx.actor.locale,
          r.count === 1 ? 'importReview.why.marked_once' : 'importReview.why.marked_times',
          { count: r.count, cycle },
        );
      default: {
        const unreachable: never = r;
        return String(unreachable);
      }
    }
  };
  return d.reasons.map(part).join('; ');
}

/**
 * Whether the statement could have charged a tracked subscription, for the list of those it
 * should show but does not. One paid with a payment method whose last four digits end a card or
 * account the statement names: yes, whatever the currency. One paid with a card the statement
 * does not name, on a statement of cards (it names no IBAN, whose card payments could come from any
 * card of the account), or with a bank account on a statement of another account: no. Any other:
 * when it is in a currency of the statement's lines. A Puregym in pounds is no absence on a euro
 * statement, nor a Netflix paid with another card.
 */
async function chargeableBy(
  ctx: OpContext,
  householdId: string,
  read: ReadStatement,
  transactions: readonly StatementTransaction[],
): Promise<(s: SubscriptionRow) => boolean> {
  const currencies = new Set(transactions.map((tx) => tx.currency));
  const raw = [...new Set([...transactions.map((tx) => tx.account), ...(read.accounts ?? [])])];
  const named = raw.flatMap((a) => {
    const digits = (a ?? '').replace(/\D/g, '');
    return digits.length >= 4 ? [digits] : [];
  });
  const iban = raw.some((a) => /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test((a ?? '').replace(/\s/g, '')));
  const methods = new Map<string, { kind: string; last4: string }>();
  if (named.length > 0) {
    const rows = await ctx.tx
      .from<{ id: string; household_id: string; kind: string; last4: string | null }>(
        'payment_methods',
      )
      .where({ household_id: householdId })
      .select('id', 'kind', 'last4');
    for (const m of rows) if (m.last4) methods.set(m.id, { kind: m.kind, last4: m.last4 });
  }
  return (s) => {
    const method = s.payment_method_id === null ? undefined : methods.get(s.payment_method_id);
    if (method) {
      if (named.some((digits) => digits.endsWith(method.last4))) return true;
      if ((method.kind === 'card' && !iban) || (method.kind === 'bank' && iban)) return false;
    }
    return currencies.has(s.currency);
  };
}

/** At most this many currencies are offered for a shared sign (chat shows one button each). */
const SHARED_SIGN_CHOICES = 6;

/**
 * The household's currency for a statement that does not say its own, unless its amounts carry a
 * sign several currencies share ("$") and the household's is not one of them: then the person is
 * asked to say it (the ops' `currency`; `exhale import --currency`; chat's buttons), since a guess
 * would be wrong. The refusal's `codes` are the likely ones, comma-separated, the currencies the
 * household's subscriptions already use first (most used first), then the sign's usual order.
 */
function sharedSignCurrency(
  read: ReadStatement,
  household: string,
  subs: readonly SubscriptionRow[],
): string {
  const symbol = read.sharedSymbol;
  if (!symbol) return household;
  const shared = currencyOfSymbol(symbol);
  const choices = shared.kind === 'shared' ? shared.candidates : [];
  if (choices.includes(household)) return household;
  const used = new Map<string, number>();
  for (const s of subs)
    if (choices.includes(s.currency)) used.set(s.currency, (used.get(s.currency) ?? 0) + 1);
  const likely = [
    ...[...used.entries()].sort((a, b) => b[1] - a[1]).map(([code]) => code),
    ...choices.filter((code) => !used.has(code)),
  ].slice(0, SHARED_SIGN_CHOICES);
  throw new OpError('invalid_input', 'errors.statementHints.which_currency', {
    symbol,
    choices: likely.slice(0, 4).join(', '),
    codes: likely.join(','),
  });
}

/**
 * Reads the statement and finds its subscriptions, each marked when the household already tracks
 * it (and whether the price differs), plus the tracked subscriptions it should show but does not.
 * Reads only; both ops call it, so import_candidates writes exactly what read_statement showed.
 */
export async function analyseStatement(
  ctx: OpContext,
  input: { content: string; encoding: 'text' | 'base64'; currency?: string | undefined },
): Promise<Analysis> {
  const hh = household(ctx);
  const report = stepReporter();
  const read = await readStatementFile(statementBytes(input.content, input.encoding));
  report({ step: 'finding' });
  const subs = await visibleSubscriptions(ctx.tx.trx, ctx.actor, hh.id)
    .whereIn('subscriptions.status', ['active', 'trial'])
    .select('subscriptions.*');
  const currency = read.currency ?? input.currency ?? sharedSignCurrency(read, hh.currency, subs);

  const transactions: StatementTransaction[] = read.transactions.map((tx) => ({
    ...tx,
    currency: tx.currency ?? currency,
  }));
  const fingerprint = fingerprintOf(transactions);
  const before = await ctx.tx
    .from<{ created_at: string; household_id: string; fingerprint: string }>('statement_imports')
    .where({ household_id: hh.id, fingerprint })
    .first('created_at');

  const detected = detectSubscriptions(transactions);
  const candidates: Candidate[] = detected.map((d) => {
    const cur = d.currency ?? currency;
    const base = d.key.replace(/ \d+$/, '');
    const tracked = subs.find((s) => sameMerchant(base, s)) ?? null;
    const amountMinor = toMinorUnits(d.amount, cur);
    const steps = d.price_steps.map((s) => ({
      date: s.date,
      oldMinor: toMinorUnits(s.from, cur),
      newMinor: toMinorUnits(s.to, cur),
    }));
    const trackedView: CandidateView['tracked'] = tracked
      ? {
          subscription_id: tracked.id,
          name: tracked.name,
          amount: formatAmount(Number(tracked.amount_minor), tracked.currency),
          // Only a price of the same currency and cycle compares: 9.99 a month is no new price
          // of a yearly 99.99 (a known service seen once is given its usual cycle, a guess).
          price_differs:
            tracked.currency === cur &&
            tracked.cycle_unit === d.cycle.unit &&
            Number(tracked.cycle_every) === d.cycle.every &&
            Number(tracked.amount_minor) !== amountMinor,
        }
      : null;
    return {
      detected: d,
      amountMinor,
      steps,
      tracked,
      view: {
        id: candidateId(d),
        name: d.name,
        amount: formatAmount(amountMinor, cur),
        currency: cur,
        cycle: d.cycle,
        first_charge: d.first_charge,
        last_charge: d.last_charge,
        // The series import_candidates starts at its first charge, on or after the household's
        // today (as a subscription's next charge is counted), not the one after its last charge:
        // that is past once the statement is a few weeks old.
        next_expected: nextOccurrence(d.first_charge, d.cycle, ctx.today),
        charges: d.charges.length,
        confidence: d.confidence,
        why: why(ctx, d),
        cycle_guessed: d.reasons.some(
          (r) => r.code === 'known_service' || r.code === 'marked_recurring',
        ),
        price_changes: steps.map((s) => ({
          date: s.date,
          old_amount: formatAmount(s.oldMinor, cur),
          new_amount: formatAmount(s.newMinor, cur),
        })),
        tracked: trackedView,
        preselected: preselected({ name: d.name, charges: d.charges.length, tracked: trackedView }),
      },
    };
  });

  const dates = transactions.map((tx) => tx.date).sort();
  const from = dates[0] ?? null;
  const to = dates.at(-1) ?? null;
  const keys = new Set(transactions.map((tx) => transactionKey(tx.payee, tx.memo)));
  const absent: StatementSummary['absent'] = [];
  if (from && to) {
    const couldCharge = await chargeableBy(ctx, hh.id, read, transactions);
    for (const s of subs) {
      if (
        !couldCharge(s) ||
        candidates.some((c) => c.tracked?.id === s.id) ||
        [...keys].some((k) => k !== '' && sameMerchant(k, s))
      )
        continue;
      const expected = occurrencesBetween(
        s.first_charge_date,
        { unit: s.cycle_unit, every: Number(s.cycle_every) },
        from,
        to,
        60,
      );
      if (expected.length === 0) continue;
      absent.push({
        subscription_id: s.id,
        name: s.name,
        amount: formatAmount(Number(s.amount_minor), s.currency),
        currency: s.currency,
        expected_on: expected,
      });
    }
  }

  const inCurrency = transactions.filter((tx) => tx.currency === currency);
  const out = inCurrency.filter((tx) => tx.amount < 0).reduce((sum, tx) => sum - tx.amount, 0);
  const moneyIn = inCurrency.filter((tx) => tx.amount > 0).reduce((sum, tx) => sum + tx.amount, 0);
  return {
    transactions: transactions.length,
    rows: transactions,
    candidates,
    summary: {
      fingerprint,
      format: read.format,
      imported_before: before?.created_at ?? null,
      transactions: {
        count: transactions.length,
        first_date: from,
        last_date: to,
        currency,
        money_out: money(out, currency),
        money_in: money(moneyIn, currency),
        sum: money(moneyIn - out, currency),
      },
      skipped: read.skipped,
      candidates: candidates.map((c) => c.view),
      absent,
    },
  };
}
