import type { Subscription } from './types.ts';

/**
 * The edit form of a subscription: its fields as the inputs hold them (text), and the
 * update_subscription input of what changed. Validation is the op's: the server's issues are
 * shown under the fields they name.
 */
export interface SubForm {
  name: string;
  vendor: string;
  amount: string;
  currency: string;
  unit: Subscription['cycle']['unit'];
  every: string;
  category: string;
  payment_method: string;
  tags: string;
  notes: string;
  url: string;
  cancel_url: string;
  trial_ends_on: string;
  contract_ends_on: string;
  notice_days: string;
  private: boolean;
}

export function formOf(s: Subscription): SubForm {
  return {
    name: s.name,
    vendor: s.vendor ?? '',
    amount: s.amount,
    currency: s.currency,
    unit: s.cycle.unit,
    every: String(s.cycle.every),
    category: s.category?.name ?? '',
    payment_method: s.payment_method?.name ?? '',
    tags: s.tags.map((x) => x.name).join(', '),
    notes: s.notes ?? '',
    url: s.url ?? '',
    cancel_url: s.cancel_url ?? '',
    trial_ends_on: s.trial_ends_on ?? '',
    contract_ends_on: s.contract_ends_on ?? '',
    notice_days: s.notice_days === null ? '' : String(s.notice_days),
    private: s.private,
  };
}

const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());
/**
 * A whole number as typed, minus sign included ("-2" is -2), so the op's own range sentence
 * answers it ("Must be at least 1."); anything else goes as typed, for the op to word.
 */
export const wholeOr = (v: string): number | string =>
  /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim();

/** The fields that differ from the subscription, as update_subscription takes them. */
export function changesOf(s: Subscription, f: SubForm): Record<string, unknown> {
  const before = formOf(s);
  const input: Record<string, unknown> = { id: s.id };
  if (f.name !== before.name) input.name = f.name.trim();
  if (f.vendor !== before.vendor) input.vendor = orNull(f.vendor);
  if (f.amount !== before.amount) input.amount = f.amount.trim().replace(',', '.');
  if (f.currency !== before.currency) input.currency = f.currency.trim().toUpperCase();
  if (f.unit !== before.unit || f.every !== before.every) {
    input.cycle = { unit: f.unit, every: wholeOr(f.every) };
  }
  if (f.category !== before.category) {
    if (f.category.trim()) input.category = f.category.trim();
    else input.category_id = null;
  }
  if (f.payment_method !== before.payment_method) {
    if (f.payment_method.trim()) input.payment_method = f.payment_method.trim();
    else input.payment_method_id = null;
  }
  if (f.tags !== before.tags) {
    input.tags = f.tags
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  }
  for (const key of ['notes', 'url', 'cancel_url', 'trial_ends_on', 'contract_ends_on'] as const) {
    if (f[key] !== before[key]) input[key] = orNull(f[key]);
  }
  if (f.notice_days !== before.notice_days) {
    input.notice_days = f.notice_days.trim() === '' ? null : wholeOr(f.notice_days);
  }
  if (f.private !== before.private) input.private = f.private;
  return input;
}
