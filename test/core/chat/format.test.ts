import { describe, expect, it } from 'vitest';

import { decimal, money } from '../../../core/chat/format.ts';

describe('money in chat', () => {
  it('writes amounts the way the reader writes numbers, from the decimal string, never a float', () => {
    expect(money('15.99', 'EUR', 'en')).toBe('15.99 EUR');
    expect(money('15.99', 'EUR', 'es')).toBe('15,99 EUR');
    // Spanish groups thousands from five digits on.
    expect(money('1234.50', 'EUR', 'es')).toBe('1234,50 EUR');
    expect(money('12345678.90', 'EUR', 'es')).toBe('12.345.678,90 EUR');
    expect(money('1500', 'JPY', 'es')).toBe('1500 JPY');
    expect(money('-5.00', 'EUR', 'es')).toBe('-5,00 EUR');
    expect(money('0.10000000000000001', 'EUR', 'es')).toBe('0,10000000000000001 EUR');
  });

  it('writes a rate with the reader\'s decimal mark ("1 USD = 0,934143 EUR" in Spanish)', () => {
    expect(decimal('0.934143', 'es')).toBe('0,934143');
    expect(decimal('0.934143', 'en')).toBe('0.934143');
    expect(decimal('2', 'es')).toBe('2');
  });
});
