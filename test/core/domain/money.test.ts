import { describe, expect, it } from 'vitest';

import { isCurrency, minorUnits } from '../../../core/domain/currencies.ts';
import { convertMinor, formatAmount, parseAmount } from '../../../core/domain/money.ts';

describe('money', () => {
  it("knows each currency's minor units from ISO 4217: EUR 2, JPY 0, BHD 3", () => {
    expect(minorUnits('EUR')).toBe(2);
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('BHD')).toBe(3);
    expect(minorUnits('CLF')).toBe(4);
  });

  it('accepts real ISO codes only', () => {
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('eur')).toBe(false);
    expect(isCurrency('ABC')).toBe(false);
  });

  it('parses decimal strings into minor units without floating point', () => {
    expect(parseAmount('15.99', 'EUR')).toEqual({ ok: true, minor: 1599 });
    expect(parseAmount('0.1', 'EUR')).toEqual({ ok: true, minor: 10 });
    expect(parseAmount('1500', 'JPY')).toEqual({ ok: true, minor: 1500 });
    expect(parseAmount('1.234', 'BHD')).toEqual({ ok: true, minor: 1234 });
    expect(parseAmount('19.990', 'EUR')).toEqual({ ok: true, minor: 1999 });
    expect(parseAmount('1000000.07', 'EUR')).toEqual({ ok: true, minor: 100000007 });
  });

  it('refuses more decimals than the currency has, and anything not a decimal', () => {
    expect(parseAmount('15.999', 'EUR')).toEqual({ ok: false, reason: 'too_many_decimals' });
    expect(parseAmount('1.5', 'JPY')).toEqual({ ok: false, reason: 'too_many_decimals' });
    for (const bad of ['', '1,50', '1e3', 'NaN', '.5', '1.', ' ', '12 EUR'])
      expect(parseAmount(bad, 'EUR').ok).toBe(false);
  });

  it('formats minor units back to the same decimal strings', () => {
    expect(formatAmount(1599, 'EUR')).toBe('15.99');
    expect(formatAmount(5, 'EUR')).toBe('0.05');
    expect(formatAmount(-5, 'EUR')).toBe('-0.05');
    expect(formatAmount(1500, 'JPY')).toBe('1500');
    expect(formatAmount(1234, 'BHD')).toBe('1.234');
  });

  it('converts between currencies with different minor units, rounding half away from zero', () => {
    expect(convertMinor(1000, 'USD', 'JPY', 147.94)).toBe(1479);
    expect(convertMinor(1000, 'EUR', 'USD', 1.0939)).toBe(1094);
    expect(convertMinor(-1000, 'EUR', 'USD', 1.0939)).toBe(-1094);
  });
});
