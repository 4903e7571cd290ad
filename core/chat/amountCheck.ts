import { minorUnits } from '../domain/currencies.ts';
import { formatAmount, MAX_MINOR, parseAmount } from '../domain/money.ts';
import { type Locale, t, type TextParams } from '../i18n/index.ts';
import { decimal, money } from '../i18n/numbers.ts';

/**
 * An amount with its thousands grouped the way the reader writes money: "21,474,836.47 EUR" in
 * English, "21.474.836,47 EUR" in Spanish. For sentences about limits, where a bare
 * "21474836.47" reads like a developer's number.
 */
export function groupedMoney(amount: string, currency: string, locale: Locale): string {
  const [whole = '', fraction] = amount.split('.');
  const [group, mark] = locale === 'es' ? ['.', ','] : [',', '.'];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${grouped}${fraction === undefined ? '' : `${mark}${fraction}`} ${currency}`;
}

/** The two ways chat reads a price, in the reader's order: "12.99 or 12,99" ("12,99 o 12.99"). */
function examples(currency: string, locale: Locale): string {
  const digits = minorUnits(currency);
  if (digits === 0) return '1500';
  const [point, comma] = [`12.${'9'.repeat(digits)}`, `12,${'9'.repeat(digits)}`];
  const [a, b] = locale === 'es' ? [comma, point] : [point, comma];
  return t(locale, 'chat.polish.amount.or', { a, b });
}

/**
 * Why a price read in chat cannot be stored, as one sentence in the reader's language naming what
 * was typed (`typed`, as written; `amount`, as the parser read it: "-5", "12.999"); null when it
 * can. The ops refuse the same amounts, in words meant for an API client: chat says it first.
 */
export function amountProblem(
  locale: Locale,
  typed: string,
  amount: string,
  currency: string,
): string | null {
  const params = {
    typed,
    currency,
    digits: minorUnits(currency),
    examples: examples(currency, locale),
  };
  const parsed = parseAmount(amount, currency);
  if (parsed.ok)
    return parsed.minor < 0 ? t(locale, 'chat.polish.amount.unreadable', params) : null;
  // More whole digits than any amount has reads as "too large", not as a malformed number.
  if (parsed.reason === 'too_large' || /^\d{14,}(\.\d+)?$/.test(amount)) {
    const max = groupedMoney(formatAmount(MAX_MINOR, currency), currency, locale);
    return t(locale, 'chat.polish.amount.too_large', { ...params, max });
  }
  if (parsed.reason === 'too_many_decimals')
    return t(locale, 'chat.polish.amount.decimals', params);
  return t(locale, 'chat.polish.amount.unreadable', params);
}

/**
 * The two readings of an amount that reads two ways ("1.200": a thousand and two hundred, or a
 * typo for 1.20?), in the reader's notation, for the sentence that says how it was read:
 * `{amount}` as read ("1200.00 EUR"), `{other}` the other way ("1.20").
 */
export function unsureAmount(amount: string, currency: string, locale: Locale): TextParams {
  return {
    amount: money(amount, currency, locale),
    other: decimal((Number(amount) / 1000).toFixed(2), locale),
  };
}
