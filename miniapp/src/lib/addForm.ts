import { typedAmount } from './decimals.ts';
import { wholeOr } from './form.ts';
import type { In } from './types.ts';

/**
 * The Add form of the Subscriptions screen: its fields as the inputs hold them (text), and the
 * create_subscription input they make. Validation is the op's (a dry run first): the server's
 * issues are shown under the fields they name, in the member's language.
 */
export interface AddForm {
  name: string;
  amount: string;
  currency: string;
  unit: 'day' | 'week' | 'month' | 'year';
  every: string;
  first_charge_date: string;
  category: string;
  payment_method: string;
  trial_ends_on: string;
  vendor: string;
  tags: string;
  notes: string;
  url: string;
  contract_ends_on: string;
  notice_days: string;
  private: boolean;
}

/** An empty form in the household's currency, monthly, first charge today. */
export function blankAdd(currency: string, today: string): AddForm {
  return {
    name: '',
    amount: '',
    currency,
    unit: 'month',
    every: '1',
    first_charge_date: today,
    category: '',
    payment_method: '',
    trial_ends_on: '',
    vendor: '',
    tags: '',
    notes: '',
    url: '',
    contract_ends_on: '',
    notice_days: '',
    private: false,
  };
}

const text = (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim());

/**
 * The op's input: what was filled in, as typed (the op checks it; a wrong "every" or notice reaches
 * it as text so its own sentence says why). A trial end makes it a trial, as chat's /add does.
 */
export function addInput(f: AddForm): In<'create_subscription'> {
  const input: Record<string, unknown> = {
    name: f.name.trim(),
    // The app's reading of a typed amount (12,99 → 12.99); anything else goes as typed, for the op to judge.
    amount: typedAmount(f.amount) ?? f.amount.trim(),
    currency: f.currency.trim().toUpperCase(),
    cycle: { unit: f.unit, every: wholeOr(f.every) },
  };
  if (text(f.first_charge_date)) input.first_charge_date = f.first_charge_date;
  if (text(f.trial_ends_on)) {
    input.trial_ends_on = f.trial_ends_on;
    input.status = 'trial';
  }
  for (const key of ['category', 'payment_method', 'vendor', 'notes', 'url'] as const) {
    const value = text(f[key]);
    if (value !== undefined) input[key] = value;
  }
  if (text(f.contract_ends_on)) input.contract_ends_on = f.contract_ends_on;
  if (text(f.notice_days)) input.notice_days = wholeOr(f.notice_days);
  const tags = f.tags
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (tags.length > 0) input.tags = tags;
  if (f.private) input.private = true;
  // The op's zod schema is the judge of these texts (a number typed as words is its error to
  // word), so the form sends them unchecked rather than narrowing them here.
  return input as In<'create_subscription'>;
}

/** Names compared as the household searches them (case and accents ignored), as chat's /add does. */
export function sameName(a: string, b: string): boolean {
  const key = (s: string): string =>
    s.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('und').replace(/\s+/g, ' ').trim();
  return key(a) === key(b);
}
