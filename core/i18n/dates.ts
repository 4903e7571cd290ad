import type { Locale } from './index.ts';

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
