import { z } from 'zod';

import { CYCLE_UNITS } from '../../domain/cycles.ts';
import { addDays, minDate } from '../../domain/dates.ts';
import { convertMinor, formatAmount, parseAmount } from '../../domain/money.ts';
import { Amount, Id } from '../../domain/schemas.ts';
import { t } from '../../i18n/index.ts';
import { transactionKey } from '../../imports/statements/merchant.ts';
import { defineOp } from '../../kernel/op.ts';
import { chargesBetween } from '../../store/repos/charges.ts';
import { loadRateBook } from '../../store/repos/fx.ts';
import { visibleSubscriptions } from '../../store/repos/subscriptions.ts';
import { household } from '../shared/context.ts';
import { analyseStatement, toMinorUnits } from './_lib/analyse.ts';
import { StatementInput } from './_lib/document.ts';
import {
  type ChargeToMatch,
  DATE_DAYS,
  type LineToMatch,
  merchantTokens,
  pairCharges,
} from './_lib/match.ts';

/** The statement line: its booking date and text (its amount is the item's actual_amount). */
const Line = z.object({ date: z.string(), text: z.string() });

const Item = z.object({
  subscription_id: Id,
  name: z.string(),
  charge_date: z.string(),
  status: z.enum(['expected', 'paid', 'skipped']).describe('paid, skipped: already recorded.'),
  expected_amount: z.string(),
  expected_currency: z.string(),
  actual_amount: z.string(),
  actual_currency: z.string(),
  line: Line,
});

const Review = Item.extend({ off: z.enum(['date', 'amount', 'merchant']), detail: z.string() });

const ToMark = z.object({
  subscription_id: Id,
  charge_date: z.string(),
  amount: Amount,
  currency: z.string(),
});

export const reconcileStatement = defineOp({
  name: 'reconcile_statement',
  title: 'Reconcile a statement',
  description:
    "Matches a statement (as read_statement takes it) with the household's charges in its period: matched (within 2 days, amount within 1% or 0.50, a merchant word shared), needs_review (one rule off: which and why), missing (expected, not on it), untracked (recurring lines not tracked). Pass to_mark to mark_charges_paid.",
  input: z.object(StatementInput),
  output: z.object({
    period: z.object({ from: z.string(), to: z.string() }).nullable(),
    currency: z.string(),
    matched: z.array(Item),
    needs_review: z.array(Review),
    missing: z.array(
      z.object({
        subscription_id: Id,
        name: z.string(),
        charge_date: z.string(),
        expected_amount: z.string(),
        currency: z.string(),
      }),
    ),
    untracked: z.array(
      z.object({
        candidate: z.string().describe('Its id for import_candidates.'),
        name: z.string(),
        amount: z.string(),
        currency: z.string(),
        cycle: z.object({ unit: z.enum(CYCLE_UNITS), every: z.int() }),
        charges: z.int(),
        last_charge: z.string(),
      }),
    ),
    to_mark: z.array(ToMark),
  }),
  effect: 'read',
  async run(ctx, input) {
    const hh = household(ctx);
    const analysis = await analyseStatement(ctx, input);
    const { summary } = analysis;
    const currency = summary.transactions.currency;
    const from = summary.transactions.first_date;
    const to = summary.transactions.last_date;
    const untrackedAll = analysis.candidates.filter((c) => c.tracked === null);
    const untrackedView = (keys: ReadonlySet<string>) =>
      untrackedAll
        .filter((c) => !keys.has(c.detected.key.replace(/ \d+$/, '')))
        .map((c) => ({
          candidate: c.view.id,
          name: c.view.name,
          amount: c.view.amount,
          currency: c.view.currency,
          cycle: c.view.cycle,
          charges: c.view.charges,
          last_charge: c.view.last_charge,
        }));
    if (!from || !to)
      return {
        period: null,
        currency,
        matched: [],
        needs_review: [],
        missing: [],
        untracked: untrackedView(new Set()),
        to_mark: [],
      };

    // Privacy as every read: only the subscriptions this actor may see.
    const subs = await visibleSubscriptions(ctx.tx.trx, ctx.actor, hh.id).select('subscriptions.*');
    const byId = new Map(subs.map((s) => [s.id, s]));
    const charges = await chargesBetween(
      ctx.tx.trx,
      subs,
      addDays(from, -DATE_DAYS),
      addDays(to, DATE_DAYS),
    );
    const lineCurrencies = new Set(analysis.rows.map((r) => r.currency ?? currency));
    const book = await loadRateBook(
      ctx.tx.trx,
      hh.id,
      [...lineCurrencies, ...charges.map((c) => c.currency)],
      minDate(addDays(from, -DATE_DAYS), ctx.today),
      minDate(addDays(to, DATE_DAYS), ctx.today),
    );

    const tokensOf = new Map<string, Set<string>>();
    for (const s of subs)
      tokensOf.set(s.id, new Set([...merchantTokens(s.name), ...merchantTokens(s.vendor ?? '')]));
    const toMatch: ChargeToMatch[] = charges.map((c) => {
      const parsed = parseAmount(c.amount, c.currency);
      const minor = parsed.ok ? parsed.minor : 0;
      return {
        key: `${c.subscription_id}|${c.due_date}`,
        date: c.due_date,
        tokens: tokensOf.get(c.subscription_id) ?? new Set(),
        expectedIn: (cur) => {
          if (cur === c.currency) return minor;
          const cross = book.crossRate(c.currency, cur, minDate(c.due_date, ctx.today));
          return cross ? convertMinor(minor, c.currency, cur, cross.rate) : null;
        },
      };
    });
    const lines: LineToMatch[] = [];
    analysis.rows.forEach((r, index) => {
      if (r.amount >= 0) return;
      const cur = r.currency ?? currency;
      const text = r.payee ?? r.memo;
      lines.push({
        index,
        date: r.date,
        minor: toMinorUnits(-r.amount, cur),
        currency: cur,
        tokens: new Set([...merchantTokens(text), ...merchantTokens(r.memo)]),
      });
    });
    const pairs = pairCharges(toMatch, lines);

    const chargeByKey = new Map(charges.map((c) => [`${c.subscription_id}|${c.due_date}`, c]));
    const locale = ctx.actor.locale;
    const matched: Array<z.infer<typeof Item>> = [];
    const review: Array<z.infer<typeof Review>> = [];
    const paired = new Set<string>();
    const pairedKeys = new Set<string>();
    for (const p of pairs) {
      const c = chargeByKey.get(p.charge.key);
      const row = analysis.rows[p.line.index];
      if (!c || !row) continue;
      paired.add(p.charge.key);
      pairedKeys.add(transactionKey(row.payee, row.memo));
      const actual = formatAmount(p.line.minor, p.line.currency);
      const item = {
        subscription_id: c.subscription_id,
        name: byId.get(c.subscription_id)?.name ?? c.subscription_name,
        charge_date: c.due_date,
        status: c.status,
        expected_amount: c.amount,
        expected_currency: c.currency,
        actual_amount: actual,
        actual_currency: p.line.currency,
        line: {
          date: row.date,
          text: [row.payee, row.memo].filter((x) => x && x !== '').join(' · '),
        },
      };
      if (p.off === null) {
        matched.push(item);
        continue;
      }
      const expectedThere = p.charge.expectedIn(p.line.currency);
      const detail =
        p.off === 'date'
          ? t(locale, 'reconcile.off.date', { days: p.days })
          : p.off === 'merchant'
            ? t(locale, 'reconcile.off.merchant')
            : expectedThere === null
              ? t(locale, 'reconcile.off.no_rate', { from: c.currency, to: p.line.currency })
              : t(locale, 'reconcile.off.amount', {
                  expected: formatAmount(expectedThere, p.line.currency),
                  actual,
                  currency: p.line.currency,
                });
      review.push({ ...item, off: p.off, detail });
    }
    const missing = charges
      .filter(
        (c) =>
          c.status === 'expected' &&
          c.due_date >= from &&
          c.due_date <= to &&
          !paired.has(`${c.subscription_id}|${c.due_date}`),
      )
      .map((c) => ({
        subscription_id: c.subscription_id,
        name: c.subscription_name,
        charge_date: c.due_date,
        expected_amount: c.amount,
        currency: c.currency,
      }));
    const byDate = (a: { charge_date: string; name: string }, b: typeof a) =>
      a.charge_date.localeCompare(b.charge_date) || a.name.localeCompare(b.name);
    matched.sort(byDate);
    review.sort(byDate);
    return {
      period: { from, to },
      currency,
      matched,
      needs_review: review,
      missing,
      untracked: untrackedView(pairedKeys),
      to_mark: matched
        .filter((m) => m.status === 'expected')
        .map((m) => ({
          subscription_id: m.subscription_id,
          charge_date: m.charge_date,
          amount: m.actual_amount,
          currency: m.actual_currency,
        })),
    };
  },
});
