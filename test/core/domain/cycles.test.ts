import { describe, expect, it } from 'vitest';

import { expectedCharges, priceOn } from '../../../core/domain/charges.ts';
import {
  chargesPerMonth,
  nextOccurrence,
  nthOccurrence,
  occurrencesBetween,
} from '../../../core/domain/cycles.ts';

describe('charge series', () => {
  it('anchors monthly series to their day and clamps to month ends (Jan 31 → Feb 28 → Mar 31)', () => {
    const monthly = { unit: 'month', every: 1 } as const;
    expect([0, 1, 2, 3].map((n) => nthOccurrence('2025-01-31', monthly, n))).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
    ]);
    expect(nthOccurrence('2024-01-31', monthly, 1)).toBe('2024-02-29');
  });

  it('puts a Feb 29 yearly charge on Feb 28 in common years and back on Feb 29 in leap years', () => {
    const yearly = { unit: 'year', every: 1 } as const;
    expect([0, 1, 2, 3, 4].map((n) => nthOccurrence('2024-02-29', yearly, n))).toEqual([
      '2024-02-29',
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
  });

  it('handles every N days, weeks, months and years', () => {
    expect(
      occurrencesBetween('2026-01-01', { unit: 'day', every: 10 }, '2026-01-05', '2026-01-31'),
    ).toEqual(['2026-01-11', '2026-01-21', '2026-01-31']);
    expect(
      occurrencesBetween('2026-01-01', { unit: 'week', every: 2 }, '2026-01-01', '2026-02-01'),
    ).toEqual(['2026-01-01', '2026-01-15', '2026-01-29']);
    expect(
      occurrencesBetween('2025-11-30', { unit: 'month', every: 3 }, '2026-01-01', '2026-12-31'),
    ).toEqual(['2026-02-28', '2026-05-30', '2026-08-30', '2026-11-30']);
    expect(nextOccurrence('2020-06-15', { unit: 'year', every: 2 }, '2026-03-01')).toBe(
      '2026-06-15',
    );
  });

  it('finds the next charge far from the anchor without drifting', () => {
    expect(nextOccurrence('1990-01-31', { unit: 'month', every: 1 }, '2026-02-01')).toBe(
      '2026-02-28',
    );
    expect(nextOccurrence('2026-05-01', { unit: 'month', every: 1 }, '2026-03-01')).toBe(
      '2026-05-01',
    );
  });

  it('counts how many charges a cycle makes per month', () => {
    expect(chargesPerMonth({ unit: 'month', every: 1 })).toBe(1);
    expect(chargesPerMonth({ unit: 'year', every: 1 })).toBeCloseTo(1 / 12, 10);
    expect(chargesPerMonth({ unit: 'week', every: 1 })).toBeCloseTo(4.348, 3);
  });

  it('uses the price in effect on each date', () => {
    const changes = [
      { effective_date: '2026-01-12', old_amount_minor: 1099, new_amount_minor: 1199 },
      { effective_date: '2026-06-12', old_amount_minor: 1199, new_amount_minor: 1299 },
    ];
    expect(priceOn('2025-12-12', 1299, changes)).toBe(1099);
    expect(priceOn('2026-01-12', 1299, changes)).toBe(1199);
    expect(priceOn('2026-07-12', 1299, changes)).toBe(1299);
  });

  it('expects no charges during a free trial, after cancellation or from a pause', () => {
    const base = {
      amount_minor: 999,
      first_charge_date: '2026-01-10',
      cycle: { unit: 'month', every: 1 } as const,
      trial_ends_on: null,
      paused_on: null,
      cancelled_on: null,
    };
    expect(
      expectedCharges(
        { ...base, status: 'trial', trial_ends_on: '2026-03-01' },
        [],
        '2026-01-01',
        '2026-04-30',
      ).map((c) => c.due_date),
    ).toEqual(['2026-03-10', '2026-04-10']);
    expect(
      expectedCharges(
        { ...base, status: 'cancelled', cancelled_on: '2026-02-15' },
        [],
        '2026-01-01',
        '2026-04-30',
      ).map((c) => c.due_date),
    ).toEqual(['2026-01-10', '2026-02-10']);
    expect(
      expectedCharges(
        { ...base, status: 'paused', paused_on: '2026-03-10' },
        [],
        '2026-01-01',
        '2026-04-30',
      ).map((c) => c.due_date),
    ).toEqual(['2026-01-10', '2026-02-10']);
  });
});
