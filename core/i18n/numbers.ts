import type { Locale } from './index.ts';

/** A decimal string (an exchange rate, "0.934143") with the reader's decimal mark: "0,934143" in Spanish. */
export function decimal(value: string, locale: Locale): string {
  return locale === 'es' && /^-?\d+\.\d+$/.test(value) ? value.replace('.', ',') : value;
}

/**
 * An amount in the reader's way of writing numbers: "15.99 EUR", "15,99 EUR", "12.345,00 EUR"
 * (Spanish groups thousands from five digits on). Amounts arrive as decimal strings and stay
 * strings: no float ever touches money.
 */
export function money(amount: string, currency: string, locale: Locale): string {
  if (locale !== 'es') return `${amount} ${currency}`;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) return `${amount} ${currency}`;
  const [, sign = '', whole = '', fraction] = match;
  const grouped = whole.length >= 5 ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.') : whole;
  return `${sign}${grouped}${fraction === undefined ? '' : `,${fraction}`} ${currency}`;
}
