import { describe, expect, it } from 'vitest';

import {
  addDays,
  canonicalTimeZone,
  fromDayNumber,
  parts,
  toDayNumber,
  findTimeZone,
  isTimeZone,
  isValidDate,
  localDate,
  localTime,
  zonedInstant,
} from '../../../core/domain/dates.ts';

describe('dates and time zones', () => {
  it('accepts real calendar dates only', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
    expect(isValidDate('26-01-01')).toBe(false);
  });

  it("gives the household's local date of an instant, which may differ from UTC's", () => {
    const instant = new Date('2026-03-01T23:30:00Z');
    expect(localDate(instant, 'UTC')).toBe('2026-03-01');
    expect(localDate(instant, 'Europe/Madrid')).toBe('2026-03-02');
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-03-01');
  });

  it('gives each instant its own date when the day turns, asked in any order (the last date is kept per minute)', () => {
    const before = new Date('2026-03-01T22:59:59.999Z');
    const after = new Date('2026-03-01T23:00:00.000Z');
    for (let i = 0; i < 3; i += 1) {
      expect(localDate(before, 'Europe/Madrid')).toBe('2026-03-01');
      expect(localDate(after, 'Europe/Madrid')).toBe('2026-03-02');
      expect(localDate(after, 'UTC')).toBe('2026-03-01');
    }
    // Before 1973 some zones' offsets had seconds: Monrovia's day turned at 00:44:30 UTC.
    expect(localDate(new Date('1970-06-01T00:44:29Z'), 'Africa/Monrovia')).toBe('1970-05-31');
    expect(localDate(new Date('1970-06-01T00:44:30Z'), 'Africa/Monrovia')).toBe('1970-06-01');
    expect(() => localDate(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });

  it('finds the instant of a local wall time on both sides of a DST change', () => {
    // Madrid moves from UTC+1 to UTC+2 on 2026-03-29.
    expect(zonedInstant('2026-03-28', '09:00', 'Europe/Madrid').toISOString()).toBe(
      '2026-03-28T08:00:00.000Z',
    );
    expect(zonedInstant('2026-03-29', '09:00', 'Europe/Madrid').toISOString()).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    // New York falls back on 2026-11-01.
    expect(zonedInstant('2026-10-31', '09:00', 'America/New_York').toISOString()).toBe(
      '2026-10-31T13:00:00.000Z',
    );
    expect(zonedInstant('2026-11-01', '09:00', 'America/New_York').toISOString()).toBe(
      '2026-11-01T14:00:00.000Z',
    );
    expect(
      localTime(zonedInstant('2026-11-01', '09:00', 'America/New_York'), 'America/New_York'),
    ).toBe('09:00');
  });

  it('resolves a wall time skipped by a DST jump to a real instant after the jump', () => {
    const instant = zonedInstant('2026-03-29', '02:30', 'Europe/Madrid');
    expect(localDate(instant, 'Europe/Madrid')).toBe('2026-03-29');
    expect(localTime(instant, 'Europe/Madrid')).toBe('03:30');
    // A repeated wall time (clocks go back on 2026-10-25) resolves to its first occurrence.
    expect(zonedInstant('2026-10-25', '02:30', 'Europe/Madrid').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Madrid')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('time zones as people type them', () => {
  it('finds a zone by its city or its name in any case, spelled as the IANA database does', () => {
    expect(findTimeZone('madrid')).toBe('Europe/Madrid');
    expect(findTimeZone('New York')).toBe('America/New_York');
    expect(findTimeZone('buenos aires')).toBe('America/Buenos_Aires');
    expect(findTimeZone('europe/madrid')).toBe('Europe/Madrid');
    expect(canonicalTimeZone('america/mexico_city')).toBe('America/Mexico_City');
  });

  it('finds nothing for an unknown place', () => {
    expect(findTimeZone('Atlantis')).toBeNull();
    expect(findTimeZone('')).toBeNull();
  });
});

describe('day numbers (arithmetic, no Date per call)', () => {
  it('agree with the calendar for every day from 1600 to 2400, leap years and centuries included', () => {
    const wrong: string[] = [];
    for (let n = -135_140; n <= 157_054; n += 1) {
      const iso = new Date(n * 86_400_000).toISOString().slice(0, 10);
      if (fromDayNumber(n) !== iso || toDayNumber(iso) !== n) wrong.push(iso);
    }
    expect(wrong).toEqual([]);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
    expect(addDays('2000-03-01', -1)).toBe('2000-02-29');
  });

  it('reads a date from its characters', () => {
    expect(parts('2026-03-09')).toEqual({ year: 2026, month: 3, day: 9 });
    expect(parts('0999-12-31')).toEqual({ year: 999, month: 12, day: 31 });
  });
});
