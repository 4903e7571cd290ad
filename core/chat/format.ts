import { daysBetween } from '../domain/dates.ts';
import { type Locale, t } from '../i18n/index.ts';

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A calendar date for people: "Thu, 5 Mar 2026" / "jue, 5 mar 2026". */
export function formatDate(date: string, locale: Locale): string {
  let fmt = dateFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(locale, fmt);
  }
  return fmt.format(new Date(`${date}T00:00:00Z`));
}

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

/** An amount as shown in chat: "15.99 EUR". Amounts arrive as decimal strings and stay strings. */
export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}
