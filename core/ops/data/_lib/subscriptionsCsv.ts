import type { Subscription } from '../../../domain/schemas.ts';

/** Columns of the subscriptions CSV, in order; the header row repeats them. */
export const CSV_COLUMNS = [
  'name',
  'vendor',
  'amount',
  'currency',
  'cycle',
  'first_charge_date',
  'next_charge_date',
  'status',
  'monthly_cost',
  'category',
  'payment_method',
  'tags',
  'member',
  'private',
  'trial_ends_on',
  'paused_on',
  'cancelled_on',
  'contract_ends_on',
  'notice_days',
  'url',
  'cancel_url',
  'notes',
] as const;

/**
 * One RFC 4180 field: quoted when it holds a comma, quote or line break, quotes doubled. A text
 * that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows joined with CRLF, as RFC 4180 writes them, ending with a line break. */
export function csvText(rows: ReadonlyArray<readonly string[]>): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** "1 month", "3 months", "2 weeks". */
export function cycleText(cycle: Subscription['cycle']): string {
  return `${cycle.every} ${cycle.unit}${cycle.every === 1 ? '' : 's'}`;
}

/** The subscriptions as CSV with a header row; amounts stay decimal strings. */
export function subscriptionsCsv(subs: readonly Subscription[], memberNames: ReadonlyMap<string, string>): string {
  const rows = subs.map((s) => {
    const values: Record<(typeof CSV_COLUMNS)[number], string> = {
      name: s.name,
      vendor: s.vendor ?? '',
      amount: s.amount,
      currency: s.currency,
      cycle: cycleText(s.cycle),
      first_charge_date: s.first_charge_date,
      next_charge_date: s.next_charge_date ?? '',
      status: s.status,
      monthly_cost: s.monthly_cost,
      category: s.category?.name ?? '',
      payment_method: s.payment_method?.name ?? '',
      tags: s.tags.map((tag) => tag.name).join('; '),
      member: memberNames.get(s.member_id) ?? '',
      private: s.private ? 'yes' : 'no',
      trial_ends_on: s.trial_ends_on ?? '',
      paused_on: s.paused_on ?? '',
      cancelled_on: s.cancelled_on ?? '',
      contract_ends_on: s.contract_ends_on ?? '',
      notice_days: s.notice_days === null ? '' : String(s.notice_days),
      url: s.url ?? '',
      cancel_url: s.cancel_url ?? '',
      notes: s.notes ?? '',
    };
    return CSV_COLUMNS.map((column) => values[column]);
  });
  return csvText([[...CSV_COLUMNS], ...rows]);
}
