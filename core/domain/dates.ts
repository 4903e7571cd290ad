/**
 * Calendar dates are `YYYY-MM-DD` strings in the household's time zone; instants are UTC ISO
 * strings. Date arithmetic here is pure calendar arithmetic (no time zone, no DST).
 */
export type IsoDate = string;

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
}

/** True for a real calendar date such as `2024-02-29`; `2023-02-29` and `2024-13-01` are not. */
export function isValidDate(text: string): boolean {
  const m = DATE_PATTERN.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return (
    year >= 1900 &&
    year <= 2200 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  );
}

/** Year, month and day of a `YYYY-MM-DD` date. Hot in charge series: fixed offsets, no split. */
/** The digit at `i` of a `YYYY-MM-DD` string (read from its character code: no substrings). */
function digit(date: string, i: number): number {
  return date.charCodeAt(i) - 48;
}

export function parts(date: IsoDate): { year: number; month: number; day: number } {
  return {
    year: digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3),
    month: digit(date, 5) * 10 + digit(date, 6),
    day: digit(date, 8) * 10 + digit(date, 9),
  };
}

export function fromParts(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Days since 1970-01-01 of a calendar date (UTC-based, so no DST can shift it). */
export function toDayNumber(date: IsoDate): number {
  // Proleptic Gregorian arithmetic (H. Hinnant's days_from_civil): no Date object per call.
  const { year: civilYear, month, day } = parts(date);
  const year = civilYear - (month <= 2 ? 1 : 0);
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function fromDayNumber(days: number): IsoDate {
  // civil_from_days, the inverse of toDayNumber.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return fromParts(yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(toDayNumber(date) + days);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

/**
 * Adds months keeping the wanted day of month and clamping to the month's end: the 31st plus one
 * month is Feb 28 (or 29), and `dayOfMonth` keeps the anchor so the series returns to the 31st.
 */
export function addMonths(date: IsoDate, months: number, dayOfMonth?: number): IsoDate {
  const { year, month, day } = parts(date);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return fromParts(y, m, Math.min(dayOfMonth ?? day, daysInMonth(y, m)));
}

export const minDate = (a: IsoDate, b: IsoDate): IsoDate => (a < b ? a : b);
export const maxDate = (a: IsoDate, b: IsoDate): IsoDate => (a > b ? a : b);

const FORMAT_OPTIONS = {
  date: ['en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }],
  time: ['en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  parts: [
    'en-US',
    {
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    },
  ],
} as const satisfies Record<string, readonly [string, Intl.DateTimeFormatOptions]>;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Intl formatters are costly to build (tens of microseconds), so each kind and zone is built once. */
function formatter(kind: keyof typeof FORMAT_OPTIONS, timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let fmt = formatters.get(key);
  if (!fmt) {
    const [locale, options] = FORMAT_OPTIONS[kind];
    fmt = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, fmt);
  }
  return fmt;
}

/**
 * Per time zone, the last date `localDate` found and the UTC minute it was for: every op call asks
 * for today's date, and formatting it was a few percent of a cached read's CPU. A date changes
 * only on a whole minute of UTC where every offset is whole minutes, as all are since 1972 (some
 * zones had offsets with seconds before), so earlier instants are not kept.
 */
const lastLocalDates = new Map<string, { minute: number; date: IsoDate }>();
const WHOLE_MINUTE_OFFSETS_SINCE = Date.UTC(1973, 0, 1);

/** The calendar date an instant falls on in a time zone (IANA name). */
export function localDate(instant: Date, timeZone: string): IsoDate {
  const ms = instant.getTime();
  const minute = Math.floor(ms / 60_000);
  const last = lastLocalDates.get(timeZone);
  if (last !== undefined && last.minute === minute) return last.date;
  const date = formatter('date', timeZone).format(instant);
  if (ms >= WHOLE_MINUTE_OFFSETS_SINCE) lastLocalDates.set(timeZone, { minute, date });
  return date;
}

/** The local wall time (`HH:MM`) of an instant in a time zone. */
export function localTime(instant: Date, timeZone: string): string {
  return formatter('time', timeZone).format(instant);
}

function offsetMinutes(instant: Date, timeZone: string): number {
  const p = Object.fromEntries(
    formatter('parts', timeZone)
      .formatToParts(instant)
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return Math.round((asUtc - instant.getTime()) / 60_000);
}

/**
 * The instant at which a local wall time happens in a time zone. A time skipped by a DST jump
 * resolves to the instant just after the jump; a repeated time resolves to its first occurrence.
 */
export function zonedInstant(date: IsoDate, time: string, timeZone: string): Date {
  const { year, month, day } = parts(date);
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets in force half a day either side cover any single DST change around the wall time.
  const candidates = [-12, 12].map(
    (h) => wall - offsetMinutes(new Date(wall + h * 3_600_000), timeZone) * 60_000,
  );
  const wanted = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  const real = candidates.filter(
    (t) => localTime(new Date(t), timeZone) === wanted && localDate(new Date(t), timeZone) === date,
  );
  // Repeated (fall back): the first occurrence. Skipped (spring forward): the later candidate, after the jump.
  return new Date(real.length > 0 ? Math.min(...real) : Math.max(...candidates));
}

/** True for an IANA time zone name Node knows, such as `Europe/Madrid`. */
/** A time zone as the IANA database spells it ("europe/madrid" → "Europe/Madrid"). */
export function canonicalTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return name;
  }
}

/**
 * The time zone a person means by a city or a zone name, any case, spaces for underscores
 * ("madrid", "New York", "america/mexico_city"); null when none or several match.
 */
export function findTimeZone(text: string): string | null {
  const wanted = text.trim().replace(/\s+/g, '_').toLowerCase();
  if (wanted.length === 0) return null;
  if (isTimeZone(wanted)) return canonicalTimeZone(wanted);
  const matches = Intl.supportedValuesOf('timeZone').filter(
    (zone) => zone.toLowerCase().split('/').at(-1) === wanted,
  );
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return name.length > 0 && name.length <= 64;
  } catch {
    return false;
  }
}
