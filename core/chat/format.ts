import { daysBetween } from '../domain/dates.ts';
import { type Locale, t } from '../i18n/index.ts';

export { formatDate } from '../i18n/dates.ts';

/** "today", "tomorrow", "in 3 days", "2 days ago", relative to `today`. */
export function relativeDay(date: string, today: string, locale: Locale): string {
  const days = daysBetween(today, date);
  if (days === 0) return t(locale, 'chat.when.today');
  if (days === 1) return t(locale, 'chat.when.tomorrow');
  if (days > 1) return t(locale, 'chat.when.in_days', { n: days });
  return t(locale, 'chat.when.days_ago', { n: -days });
}

/** "every month", "every 3 months", "cada año"… */
export function cycleText(cycle: { unit: string; every: number }, locale: Locale): string {
  const unit = ['day', 'week', 'month', 'year'].includes(cycle.unit) ? cycle.unit : 'month';
  return cycle.every === 1
    ? t(locale, `chat.cycle.${unit}.one`)
    : t(locale, `chat.cycle.${unit}.other`, { n: cycle.every });
}

/**
 * An amount as shown in chat, in the reader's way of writing numbers: "15.99 EUR", "15,99 EUR",
 * "12.345,00 EUR" (Spanish groups thousands from five digits on). Amounts arrive as decimal strings
 * and stay strings: no float ever touches money.
 */
/** A decimal string (an exchange rate, "0.934143") with the reader's decimal mark: "0,934143" in Spanish. */
export function decimal(value: string, locale: Locale): string {
  return locale === 'es' && /^-?\d+\.\d+$/.test(value) ? value.replace('.', ',') : value;
}

export function money(amount: string, currency: string, locale: Locale): string {
  if (locale !== 'es') return `${amount} ${currency}`;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) return `${amount} ${currency}`;
  const [, sign = '', whole = '', fraction] = match;
  const grouped = whole.length >= 5 ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.') : whole;
  return `${sign}${grouped}${fraction === undefined ? '' : `,${fraction}`} ${currency}`;
}
