import { locale } from './i18n.ts';
import { timeZone } from './session.ts';

/**
 * Amounts and dates in the reader's format: the member's locale, the household currency.
 * Money arrives as decimal strings ("15.99"); it is only formatted here, never summed.
 * Dates arrive as YYYY-MM-DD in the household's time zone: they are formatted as UTC calendar
 * days so no time zone moves them.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  const hit = cache.get(key);
  if (hit instanceof Intl.NumberFormat) return hit;
  const made = make();
  cache.set(key, made);
  return made;
}

function dateFormat(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  const hit = cache.get(key);
  if (hit instanceof Intl.DateTimeFormat) return hit;
  const made = make();
  cache.set(key, made);
  return made;
}

export function money(amount: string | number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const value = typeof amount === 'number' ? amount : Number(amount);
  const tag = locale.value;
  const f = numberFormat(`m:${tag}:${currency}`, () => {
    try {
      return new Intl.NumberFormat(tag, { style: 'currency', currency });
    } catch {
      return new Intl.NumberFormat(tag, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
  });
  return f.format(value);
}

/** Digits after the decimal point of a decimal string ("0.9140" has 4): kept as sent. */
function fractionDigits(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/** A decimal string that is not money (an exchange rate, "0.9140") in the reader's format: "0,9140". */
export function decimal(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const digits = fractionDigits(value);
  const tag = locale.value;
  const f = numberFormat(`d:${tag}:${digits}`, () => {
    return new Intl.NumberFormat(tag, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  });
  return f.format(Number(value));
}

/** A change in percent ("20.0") in the reader's format, signed: "+20.0%", "+20,0 %". */
export function percent(value: string): string {
  const digits = fractionDigits(value);
  const tag = locale.value;
  const f = numberFormat(`p:${tag}:${digits}`, () => {
    return new Intl.NumberFormat(tag, {
      style: 'percent',
      signDisplay: 'exceptZero',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  });
  return f.format(Number(value) / 100);
}

/**
 * A share of a price in percent ("50.00", "33.33") in the reader's format, unsigned, without
 * trailing zeros: "50%", "33.33%", "50 %", "33,33 %".
 */
export function share(value: string): string {
  const tag = locale.value;
  const f = numberFormat(`s:${tag}`, () => {
    return new Intl.NumberFormat(tag, {
      style: 'percent',
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
  });
  return f.format(Number(value) / 100);
}

/** A whole-unit amount for chart labels ("€202"); a missing amount is "—", as in `money`. */
export function moneyShort(amount: string | number | undefined, currency: string): string {
  if (amount === undefined || amount === '') return '—';
  const tag = locale.value;
  const f = numberFormat(`ms:${tag}:${currency}`, () => {
    try {
      return new Intl.NumberFormat(tag, {
        style: 'currency',
        currency,
        maximumFractionDigits: 0,
      });
    } catch {
      return new Intl.NumberFormat(tag, { maximumFractionDigits: 0 });
    }
  });
  return f.format(Number(amount));
}

function utcDay(day: string): Date {
  return new Date(`${day}T12:00:00Z`);
}

export type DateStyle =
  'short' | 'medium' | 'long' | 'weekday' | 'weekdayYear' | 'month' | 'dayNumber';

const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  short: { day: 'numeric', month: 'short' },
  medium: { day: 'numeric', month: 'short', year: 'numeric' },
  long: { day: 'numeric', month: 'long', year: 'numeric' },
  weekday: { weekday: 'short', day: 'numeric', month: 'short' },
  weekdayYear: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
  month: { month: 'long', year: 'numeric' },
  dayNumber: { day: 'numeric' },
};

export function date(day: string | null | undefined, style: DateStyle = 'short'): string {
  if (!day) return '—';
  const tag = locale.value;
  const f = dateFormat(
    `d:${tag}:${style}`,
    () => new Intl.DateTimeFormat(tag, { ...DATE_OPTIONS[style], timeZone: 'UTC' }),
  );
  return f.format(utcDay(day.slice(0, 10)));
}

/**
 * A day of a period in the reader's format, with its year when it is not this year:
 * "1 Sep 2017", "Nov 25".
 */
export function dayOfPeriod(day: string | null | undefined, today: string): string {
  if (!day) return '—';
  return date(day, day.slice(0, 4) === today.slice(0, 4) ? 'short' : 'medium');
}

/** A day with its weekday, and its year when it is not this year: "Fri, Dec 11", "Fri, May 10, 2030". */
export function weekdayOf(day: string | null | undefined, today: string): string {
  if (!day) return '—';
  return date(day, day.slice(0, 4) === today.slice(0, 4) ? 'weekday' : 'weekdayYear');
}

/**
 * An instant (UTC ISO) in the reader's format and the household's time zone (a household has one:
 * chat's /activity and every time the app shows agree, wherever the browser is).
 */
export function instant(iso: string): string {
  const tag = locale.value;
  const zone = timeZone.value;
  const when = new Date(iso);
  // The year only when it is not this year ("Dec 6, 13:18", "Dec 6, 2025, 13:18").
  const withYear = when.getUTCFullYear() !== new Date().getUTCFullYear();
  const f = dateFormat(`i:${tag}:${zone}:${withYear ? 'y' : ''}`, () => {
    const options: Intl.DateTimeFormatOptions = {
      day: 'numeric',
      month: 'short',
      ...(withYear ? { year: 'numeric' } : {}),
      hour: '2-digit',
      minute: '2-digit',
    };
    try {
      return new Intl.DateTimeFormat(tag, { ...options, timeZone: zone });
    } catch {
      // A zone this browser does not know: UTC, never the browser's own.
      return new Intl.DateTimeFormat(tag, { ...options, timeZone: 'UTC' });
    }
  });
  return f.format(when);
}

const INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})/g;

/**
 * A text written elsewhere (a confirm card's line) with each UTC ISO instant in it written as
 * `instant` writes times ("revoked — → 2026-12-06T12:18:07.927Z" reads "revoked — → Dec 6, 13:18").
 */
export function instantsIn(text: string): string {
  return text.replace(INSTANT, (iso) => (Number.isNaN(Date.parse(iso)) ? iso : instant(iso)));
}

/** Short weekday names, Monday first, in the reader's language. */
export function weekdayNames(): string[] {
  const tag = locale.value;
  const f = dateFormat(
    `wd:${tag}`,
    () => new Intl.DateTimeFormat(tag, { weekday: 'narrow', timeZone: 'UTC' }),
  );
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, i) => f.format(new Date(Date.UTC(2024, 0, 1 + i, 12))));
}

/** Whole days from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcDay(to).getTime() - utcDay(from).getTime()) / 86_400_000);
}

/** Adds days to a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  const d = utcDay(day);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today in a time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string): string {
  return dayIn(new Date().toISOString(), timeZone);
}

/** The day an instant (UTC ISO) falls on in a time zone, as YYYY-MM-DD (UTC's for a zone unknown here). */
export function dayIn(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(iso));
  } catch {
    return iso.slice(0, 10);
  }
}
