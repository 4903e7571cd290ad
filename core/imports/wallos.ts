import { isCurrency } from '../domain/currencies.ts';
import type { CycleUnit } from '../domain/cycles.ts';
import { isValidDate } from '../domain/dates.ts';
import { type Locale, t } from '../i18n/index.ts';
import { Url } from '../domain/schemas.ts';
import { currencyOfSymbol } from './currencySymbols.ts';

/**
 * Reads Wallos exports (https://github.com/ellite/Wallos). Two shapes exist in the wild:
 * - the file its "Export as JSON" button saves (`endpoints/subscriptions/export.php`): an array
 *   of objects with display keys: "Name", "Payment Cycle" ("Monthly", "Every 3 Months"),
 *   "Next Payment", "Price" (symbol + number, "€9.99"), "Category", "Payment Method",
 *   "Notes", "URL", "Active" ("Yes"/"No"), "State", "Cancellation Date"…;
 * - its API rows (`api/subscriptions/get_subscriptions.php`, or that response's
 *   `subscriptions`): snake_case columns: name, price (a number), cycle (1 daily, 2 weekly,
 *   3 monthly, 4 yearly, 5 one-time), frequency, next_payment, category_name,
 *   payment_method_name, notes, url, inactive, cancellation_date; the currency only as an id,
 *   so a `currency_code` (or `currency`) key is read when present.
 * Each item becomes a subscription in Exhale's import shape; checking amounts, dates and
 * lengths is left to the shared item validation, which names problems by the Wallos field.
 */

/** A problem or note about one item, already in the reader's language. */
export interface SourceIssue {
  field: string | null;
  message: string;
}

export interface WallosItem {
  /** 1-based position in the file. */
  item: number;
  name: string | null;
  /** The subscription in Exhale's import shape, or null when it can't be read. */
  fields: Record<string, unknown> | null;
  problems: SourceIssue[];
  warnings: SourceIssue[];
  /** Exhale field → the Wallos field it came from, so problems name the file's field. */
  sourceField: Readonly<Record<string, string>>;
}

export interface WallosOptions {
  locale: Locale;
  householdCurrency: string;
  /** The currency meant by a shared symbol ("$", "kr", "¥") or by a price without one. */
  currency?: string | undefined;
}

const EXPORT_FIELDS = {
  name: 'Name',
  amount: 'Price',
  currency: 'Price',
  cycle: 'Payment Cycle',
  first_charge_date: 'Next Payment',
  cancelled_on: 'Cancellation Date',
  contract_ends_on: 'Cancellation Date',
  category: 'Category',
  payment_method: 'Payment Method',
  notes: 'Notes',
  url: 'URL',
} as const;

const API_FIELDS = {
  name: 'name',
  amount: 'price',
  currency: 'currency_code',
  cycle: 'cycle',
  first_charge_date: 'next_payment',
  cancelled_on: 'cancellation_date',
  contract_ends_on: 'cancellation_date',
  category: 'category_name',
  payment_method: 'payment_method_name',
  notes: 'notes',
  url: 'url',
} as const;

/** Placeholders Wallos writes for "none". */
const NO_CATEGORY = new Set(['no category']);
const NO_PAYMENT_METHOD = new Set(['unknown payment method']);

const API_CYCLES: Readonly<Record<string, CycleUnit>> = {
  '1': 'day',
  '2': 'week',
  '3': 'month',
  '4': 'year',
};
const NAMED_CYCLES: Readonly<Record<string, CycleUnit>> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
};

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The subscriptions of a Wallos export, or null when the value isn't one: a (possibly empty)
 * array of objects with a "Name"/"name", or the export endpoint's `{ success, subscriptions }`.
 */
export function wallosSubscriptions(value: unknown): unknown[] | null {
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && 'success' in value && Array.isArray(value.subscriptions)
      ? value.subscriptions
      : null;
  if (!list) return null;
  const first: unknown = list[0];
  if (first === undefined) return list;
  return isRecord(first) && ('Name' in first || 'name' in first) ? list : null;
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Splits "€9.99", "9.99 €" or "CHF 12" into its symbol and number. */
function splitPrice(price: string): { symbol: string; number: string } | null {
  const match = /^(\D*?)\s*(\d+(?:\.\d+)?)\s*(\D*?)$/u.exec(price);
  if (!match) return null;
  const [, before = '', number = '', after = ''] = match;
  if (before.trim() !== '' && after.trim() !== '') return null;
  return { symbol: (before || after).trim(), number };
}

function parseNamedCycle(cycle: string): { unit: CycleUnit; every: number } | 'one_time' | null {
  const lower = cycle.toLowerCase();
  if (lower === 'one-time' || lower === 'one time') return 'one_time';
  const named = NAMED_CYCLES[lower];
  if (named) return { unit: named, every: 1 };
  const match = /^every\s+(\d{1,4})\s+(day|week|month|year)s?$/.exec(lower);
  if (!match) return null;
  return { unit: match[2] as CycleUnit, every: Number(match[1]) };
}

/** Reads every item; an item that can't be read carries its problems instead of fields. */
export function readWallos(list: readonly unknown[], options: WallosOptions): WallosItem[] {
  return list.map((raw, index) => readItem(raw, index + 1, options));
}

function readItem(raw: unknown, item: number, options: WallosOptions): WallosItem {
  const say = (key: string, params: Record<string, string | number> = {}) =>
    t(options.locale, key, params);
  if (!isRecord(raw)) {
    return {
      item,
      name: null,
      fields: null,
      problems: [{ field: null, message: say('data.import.not_an_object') }],
      warnings: [],
      sourceField: {},
    };
  }
  const api = !('Name' in raw);
  const sourceField = api ? API_FIELDS : EXPORT_FIELDS;
  const problems: SourceIssue[] = [];
  const warnings: SourceIssue[] = [];
  const fail = (
    field: keyof typeof EXPORT_FIELDS,
    key: string,
    params: Record<string, string | number> = {},
  ) => problems.push({ field: sourceField[field], message: say(key, params) });

  const name = text(raw[sourceField.name]);
  if (name === null) fail('name', 'data.import.required');

  // price and currency
  let amount: string | null = null;
  let symbol = '';
  if (api) {
    amount = text(raw.price);
    const code = text(raw.currency_code) ?? text(raw.currency);
    if (code !== null && !isCurrency(code.toUpperCase()))
      fail('currency', 'data.import.currency_unknown', { currency: code });
    symbol = code ?? '';
    if (amount === null) fail('amount', 'data.import.required');
  } else {
    const price = text(raw.Price);
    const split = price === null ? null : splitPrice(price);
    if (price === null) fail('amount', 'data.import.required');
    else if (!split) fail('amount', 'data.import.price', { price });
    else {
      symbol = split.symbol;
      amount = split.number;
    }
  }
  let currency: string | null = null;
  const said = currencyOfSymbol(symbol);
  switch (said.kind) {
    case 'known':
      currency = said.currency;
      break;
    case 'shared':
      currency =
        options.currency ??
        (said.candidates.includes(options.householdCurrency) ? options.householdCurrency : null);
      if (currency === null)
        fail('currency', 'data.import.symbol_ambiguous', {
          symbol,
          candidates: said.candidates.join(', '),
        });
      break;
    case 'none':
      currency = options.currency ?? options.householdCurrency;
      if (!options.currency && amount !== null)
        warnings.push({
          field: sourceField.currency,
          message: say('data.import.currency_assumed', { currency }),
        });
      break;
    case 'unknown':
      if (!api) fail('currency', 'data.import.symbol_unknown', { symbol });
      break;
    default: {
      const unreachable: never = said;
      throw new Error(`unknown symbol result ${String(unreachable)}`);
    }
  }

  // cycle
  let cycle: { unit: CycleUnit; every: number } | null = null;
  const cycleText = text(raw[sourceField.cycle]);
  if (cycleText === null) fail('cycle', 'data.import.cycle_missing');
  else {
    const parsed = api ? apiCycle(cycleText, raw.frequency) : parseNamedCycle(cycleText);
    if (parsed === 'one_time') fail('cycle', 'data.import.one_time');
    else if (parsed === null) fail('cycle', 'data.import.cycle_unknown', { cycle: cycleText });
    else cycle = parsed;
  }

  const next = text(raw[sourceField.first_charge_date]);
  if (next === null) fail('first_charge_date', 'data.import.required');

  // state: Wallos keeps "inactive" (disabled) subscriptions; here they are cancelled
  const inactive = api
    ? raw.inactive === 1 || raw.inactive === true || raw.inactive === '1'
    : raw.Active === 'No' || raw.State === 'Disabled';
  const cancellation = text(raw[sourceField.cancelled_on]);
  let cancelledOn: string | null = null;
  let contractEndsOn: string | null = null;
  if (cancellation !== null && inactive) {
    if (next !== null && isValidDate(cancellation) && isValidDate(next) && cancellation < next) {
      warnings.push({
        field: sourceField.cancelled_on,
        message: say('data.import.cancel_date_dropped', { date: cancellation }),
      });
    } else cancelledOn = cancellation;
  }
  // an active subscription's cancellation date is the day to have cancelled by: a contract end
  if (cancellation !== null && !inactive) contractEndsOn = cancellation;

  const category = text(raw[sourceField.category]);
  const method = text(raw[sourceField.payment_method]);
  const url = readUrl(text(raw[sourceField.url]));
  if (url.dropped)
    warnings.push({
      field: sourceField.url,
      message: say('data.import.url_dropped', { url: url.dropped }),
    });

  if (problems.length > 0) return { item, name, fields: null, problems, warnings, sourceField };
  return {
    item,
    name,
    fields: {
      name,
      amount,
      currency,
      cycle,
      first_charge_date: next,
      status: inactive ? 'cancelled' : 'active',
      cancelled_on: cancelledOn,
      contract_ends_on: contractEndsOn,
      category: category !== null && NO_CATEGORY.has(category.toLowerCase()) ? null : category,
      payment_method:
        method !== null && NO_PAYMENT_METHOD.has(method.toLowerCase()) ? null : method,
      notes: text(raw[sourceField.notes]),
      url: url.value,
    },
    problems,
    warnings,
    sourceField,
  };
}

function apiCycle(
  cycle: string,
  frequency: unknown,
): { unit: CycleUnit; every: number } | 'one_time' | null {
  if (cycle === '5') return 'one_time';
  const unit = API_CYCLES[cycle];
  if (!unit) return null;
  const every = frequency === undefined || frequency === null ? 1 : Number(frequency);
  return Number.isInteger(every) && every >= 1 ? { unit, every } : null;
}

/** Wallos stores whatever was typed: "netflix.com" becomes https://netflix.com; junk is dropped. */
function readUrl(url: string | null): { value: string | null; dropped?: string } {
  if (url === null) return { value: null };
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
  const ok = Url.safeParse(candidate).success && /^https?:\/\/[^\s/]+\.[^\s/]+/i.test(candidate);
  return ok ? { value: candidate } : { value: null, dropped: url };
}
