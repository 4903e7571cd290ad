import { daysBetween } from '../domain/dates.ts';
import { type Locale, t } from '../i18n/index.ts';

export { formatDate, formatInstant } from '../i18n/dates.ts';

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

export { decimal, money } from '../i18n/numbers.ts';
