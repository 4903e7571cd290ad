import { describe, expect, it } from 'vitest';

import { formatDate, formatInstant } from '../../../core/i18n/dates.ts';

describe('formatInstant', () => {
  it('writes an instant in the household’s time zone and the reader’s language, never as stored', () => {
    const at = '2026-03-02T10:00:00.000Z';
    expect(formatInstant(at, 'en', 'Europe/Madrid')).toBe('Mon, 2 Mar 2026, 11:00');
    expect(formatInstant(at, 'es', 'Europe/Madrid')).toBe('lun, 2 mar 2026, 11:00');
    expect(formatInstant(at, 'en', 'America/New_York')).toBe('Mon, 2 Mar 2026, 05:00');
  });

  it('falls on the household’s day, not UTC’s, near midnight', () => {
    const late = '2026-03-02T23:30:00.000Z';
    expect(formatInstant(late, 'en', 'Europe/Madrid')).toBe('Tue, 3 Mar 2026, 00:30');
    expect(formatInstant(late, 'es', 'Europe/Madrid', { time: false })).toBe(
      formatDate('2026-03-03', 'es'),
    );
    expect(formatInstant(late, 'en', 'UTC', { time: false })).toBe('Mon, 2 Mar 2026');
  });

  it('returns text that is not an instant as it is', () => {
    expect(formatInstant('soon', 'en', 'Europe/Madrid')).toBe('soon');
  });
});
