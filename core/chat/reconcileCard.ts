import type { z } from 'zod';

import { type Locale, t } from '../i18n/index.ts';
import type { reconcileStatement } from '../ops/statements/reconcileStatement.ts';
import { formatDate, money } from './format.ts';

/**
 * The lines of a reconciliation card, written by Exhale from reconcile_statement's result (never a
 * model's words): the period, then matched, to review (and why), expected but missing, and
 * recurring but untracked, each section listing a few and counting the rest. The chat's card and
 * `exhale import --reconcile` print the same lines.
 */

type Output = z.output<typeof reconcileStatement.output>;

/** Each section lists this many, then counts the rest. */
const LIST_MAX = 8;

export function reconcileLines(locale: Locale, out: Output): string[] {
  const date = (d: string) => formatDate(d, locale);
  const lines: string[] = [];
  const section = (title: string, items: readonly string[]) => {
    if (items.length === 0) return;
    lines.push(t(locale, title, { count: items.length }));
    for (const item of items.slice(0, LIST_MAX)) lines.push(`• ${item}`);
    if (items.length > LIST_MAX)
      lines.push(t(locale, 'reconcile.chat.more', { count: items.length - LIST_MAX }));
  };
  if (out.period)
    lines.push(
      t(locale, 'chat.statements.period', { from: date(out.period.from), to: date(out.period.to) }),
    );
  if (out.matched.length === 0 && out.needs_review.length === 0)
    lines.push(t(locale, 'reconcile.chat.nothing'));
  section(
    'reconcile.chat.matched',
    out.matched.map((m) =>
      t(
        locale,
        m.status === 'expected' ? 'reconcile.chat.matched_line' : 'reconcile.chat.recorded',
        {
          name: m.name,
          date: date(m.charge_date),
          amount: money(m.actual_amount, m.actual_currency, locale),
        },
      ),
    ),
  );
  section(
    'reconcile.chat.review',
    out.needs_review.map((r) =>
      t(
        locale,
        r.off === 'amount' ? 'reconcile.chat.review_amount' : 'reconcile.chat.review_line',
        {
          name: r.name,
          date: date(r.line.date),
          amount: money(r.actual_amount, r.actual_currency, locale),
          detail: r.detail,
        },
      ),
    ),
  );
  section(
    'reconcile.chat.missing',
    out.missing.map((m) =>
      t(locale, 'reconcile.chat.missing_line', {
        name: m.name,
        date: date(m.charge_date),
        amount: money(m.expected_amount, m.currency, locale),
      }),
    ),
  );
  section(
    'reconcile.chat.untracked',
    out.untracked.map((u) =>
      t(locale, 'reconcile.chat.untracked_line', {
        name: u.name,
        amount: money(u.amount, u.currency, locale),
      }),
    ),
  );
  return lines;
}
