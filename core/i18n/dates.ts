import type { Locale } from './index.ts';

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();
/** Formatters of instants, by locale, time zone and whether the time is shown (costly to build). */
const instantFormats = new Map<string, Intl.DateTimeFormat>();

const intlLocale = (locale: Locale): string => (locale === 'es' ? 'es-ES' : 'en-GB');

/** A calendar date for people: "Thu, 5 Mar 2026" / "jue, 5 mar 2026". */
export function formatDate(date: string, locale: Locale): string {
  let fmt = dateFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(intlLocale(locale), {
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

/**
 * An instant as stored (a UTC ISO string, "2026-03-02T10:00:00.000Z") for people, in the reader's
 * language and the household's time zone: "Mon, 2 Mar 2026, 11:00" / "lun, 2 mar 2026, 11:00" in
 * Europe/Madrid; with `{ time: false }` only its day there ("Mon, 2 Mar 2026"), written as
 * `formatDate` writes a date. Text that is not an instant is returned as it is.
 */
export function formatInstant(
  instant: string,
  locale: Locale,
  timeZone: string,
  options: { time?: boolean } = {},
): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  const time = options.time ?? true;
  const key = `${locale} ${timeZone} ${time ? 'time' : 'day'}`;
  let fmt = instantFormats.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(intlLocale(locale), {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(time ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : {}),
      timeZone,
    });
    instantFormats.set(key, fmt);
  }
  return fmt.format(at);
}
