import { describe, expect, it } from 'vitest';

import { cleanOcrText } from '../../../../../core/imports/statements/ocr/clean.ts';

describe('cleanOcrText (OCR text made into lines the line reader reads)', () => {
  it('reads letters that look like digits inside numbers as digits, and leaves words alone', () => {
    expect(cleanOcrText('O3 NOV  NETFLIX.COM  -1O.99')).toBe('03 NOV NETFLIX.COM -10.99');
    expect(cleanOcrText('l2 NOV Costco Oil  -4l,5O')).toBe('12 NOV Costco Oil -41,50');
  });

  it('joins amounts broken by spaces and long dashes, and separates a day glued to its month', () => {
    expect(cleanOcrText('12NOV Spotify – 10 .99')).toBe('12 NOV Spotify -10.99');
    expect(cleanOcrText('12 NOV Rent 1 030.00')).toBe('12 NOV Rent 1030.00');
  });

  it('moves a currency written after the amount before it, keeping the sign first', () => {
    expect(cleanOcrText('03/11/2025 Netflix -15,99 €')).toBe('03/11/2025 Netflix -€ 15,99');
  });

  it("dates a banking app's rows by the date heading above them", () => {
    const text = [
      'Movimientos',
      'Lunes, 3 de noviembre de 2025',
      'Netflix -15,99 €',
      'Wed 5 Nov',
      'Spotify -10.99',
      'Saldo disponible',
    ].join('\n');
    expect(cleanOcrText(text).split('\n')).toEqual([
      'Movimientos',
      'Lunes, 3 de noviembre de 2025',
      '3 noviembre 2025  Netflix -€ 15,99',
      'Wed 5 Nov',
      '5 Nov  Spotify -10.99',
      'Saldo disponible',
    ]);
  });
});
