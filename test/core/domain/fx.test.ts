import { describe, expect, it } from 'vitest';

import { createRateBook, describeCross, type FxRate, formatRate } from '../../../core/domain/fx.ts';
import { convertMinor } from '../../../core/domain/money.ts';
import { ecbFixtureDays } from '../fx/fixtures.ts';

/** The real ECB rates of 2024-03-13 and 2024-06-28 as stored rates. */
const ecb: FxRate[] = ecbFixtureDays().flatMap((day) =>
  day.rates.map((r) => ({
    currency: r.currency,
    date: day.date,
    per_eur: r.per_eur,
    source: 'ecb' as const,
  })),
);

describe('createRateBook', () => {
  const book = createRateBook(ecb);

  it('converts 10.00 USD into 9.14 EUR at the reference rate of 2024-03-13 (10 / 1.0939)', () => {
    const cross = book.crossRate('USD', 'EUR', '2024-03-13');
    expect(cross?.rate).toBeCloseTo(1 / 1.0939, 12);
    expect(cross?.legs).toEqual([
      { currency: 'USD', date: '2024-03-13', per_eur: 1.0939, source: 'ecb', stale: false },
    ]);
    expect(convertMinor(1000, 'USD', 'EUR', cross?.rate ?? 0)).toBe(914);
  });

  it('crosses two non-euro currencies through the euro: 10.00 GBP is 12.80 USD on 2024-03-13', () => {
    const cross = book.crossRate('GBP', 'USD', '2024-03-13');
    expect(cross?.rate).toBeCloseTo(1.0939 / 0.85451, 12);
    expect(cross?.legs.map((l) => l.currency)).toEqual(['GBP', 'USD']);
    expect(convertMinor(1000, 'GBP', 'USD', cross?.rate ?? 0)).toBe(1280);
    expect(
      convertMinor(150_000, 'JPY', 'EUR', book.crossRate('JPY', 'EUR', '2024-06-28')?.rate ?? 0),
    ).toBe(87_240);
  });

  it('uses the newest rate on or before the date and says it is stale when older', () => {
    const between = book.rateOn('USD', '2024-05-01');
    expect(between).toEqual({
      currency: 'USD',
      date: '2024-03-13',
      per_eur: 1.0939,
      source: 'ecb',
      stale: true,
    });
    expect(book.rateOn('USD', '2024-07-15')).toMatchObject({
      date: '2024-06-28',
      per_eur: 1.0705,
      stale: true,
    });
    expect(book.rateOn('USD', '2024-06-28')).toMatchObject({ date: '2024-06-28', stale: false });
    const cross = book.crossRate('GBP', 'USD', '2024-05-01');
    expect(cross && describeCross(cross, '2024-05-01')).toEqual({
      date: '2024-03-13',
      source: 'ecb',
      stale: true,
    });
  });

  it('invents nothing: no rate before the first one, none for an unpublished currency', () => {
    expect(book.rateOn('USD', '2024-03-12')).toBeNull();
    expect(book.crossRate('USD', 'EUR', '2024-03-12')).toBeNull();
    expect(book.crossRate('ARS', 'EUR', '2024-06-28')).toBeNull();
    expect(book.crossRate('EUR', 'ARS', '2024-06-28')).toBeNull();
  });

  it('treats EUR as 1 per EUR and a currency into itself as 1, whatever is stored', () => {
    expect(book.rateOn('EUR', '1999-01-01')).toEqual({
      currency: 'EUR',
      date: '1999-01-01',
      per_eur: 1,
      source: 'ecb',
      stale: false,
    });
    expect(book.crossRate('ARS', 'ARS', '2024-06-28')).toEqual({ rate: 1, legs: [] });
    expect(
      createRateBook([
        { currency: 'EUR', date: '2024-01-01', per_eur: 2, source: 'manual' },
      ]).rateOn('EUR', '2024-02-01')?.per_eur,
    ).toBe(1);
  });

  it('lets a manual rate win over the ECB one, even a newer ECB one', () => {
    const withManual = createRateBook([
      ...ecb,
      { currency: 'USD', date: '2024-03-01', per_eur: 1.25, source: 'manual' },
    ]);
    expect(withManual.rateOn('USD', '2024-06-28')).toEqual({
      currency: 'USD',
      date: '2024-03-01',
      per_eur: 1.25,
      source: 'manual',
      stale: true,
    });
    expect(withManual.rateOn('USD', '2024-02-29')).toBeNull();
    expect(withManual.rateOn('USD', '2024-06-28', 'ecb')).toMatchObject({ per_eur: 1.0705 });
    const cross = withManual.crossRate('GBP', 'USD', '2024-06-28');
    expect(cross && describeCross(cross, '2024-06-28')).toEqual({
      date: '2024-03-01',
      source: 'manual',
      stale: true,
    });
  });
});

describe('formatRate', () => {
  it('writes six significant digits without trailing zeros or an exponent', () => {
    expect(formatRate(1 / 1.0939)).toBe('0.91416');
    expect(formatRate(161.83)).toBe('161.83');
    expect(formatRate(17039.08)).toBe('17039.1');
    expect(formatRate(1 / 17039.08)).toBe('0.0000586886');
    expect(formatRate(1)).toBe('1');
  });
});
