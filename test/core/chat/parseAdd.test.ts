import { describe, expect, it } from 'vitest';

import { nextDayOfMonth, parseAddLine } from '../../../core/chat/parseAdd.ts';

describe('parseAddLine', () => {
  const today = '2026-03-02';

  it('reads name, amount, currency, cycle and day of the month in one line', () => {
    expect(parseAddLine('Netflix 15.99 EUR monthly 5', today)).toEqual({
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      cycle: 'month',
      date: '2026-03-05',
      unknown: [],
    });
  });

  it('takes every word before the amount as the name, a decimal comma, symbols and Spanish words', () => {
    expect(parseAddLine('Disney Plus 8,99€ anual', today)).toEqual({
      name: 'Disney Plus',
      amount: '8.99',
      currency: 'EUR',
      cycle: 'year',
      date: null,
      unknown: [],
    });
    expect(parseAddLine('Hulu $7.99 semanal 2026-04-01', today)).toMatchObject({
      name: 'Hulu',
      amount: '7.99',
      currency: 'USD',
      cycle: 'week',
      date: '2026-04-01',
    });
  });

  it('leaves missing parts null and lists words it does not understand', () => {
    expect(parseAddLine('Spotify', today)).toMatchObject({
      name: 'Spotify',
      amount: null,
      currency: null,
      cycle: null,
      date: null,
    });
    expect(parseAddLine('15.99', today)).toMatchObject({ name: '15.99', amount: null });
    expect(parseAddLine('Gym 30 monthly please', today).unknown).toEqual(['please']);
    expect(parseAddLine('Gym 30 XXQ', today).unknown).toEqual(['XXQ']);
  });

  it('keeps a 3-letter word that is not a currency as unknown and a second currency as unknown', () => {
    expect(parseAddLine('Gym 30 EUR USD', today)).toMatchObject({
      currency: 'EUR',
      unknown: ['USD'],
    });
  });
});

describe('nextDayOfMonth', () => {
  it("is this month's day when it is still ahead (or today), else the next month that has that day", () => {
    expect(nextDayOfMonth(2, '2026-03-02')).toBe('2026-03-02');
    expect(nextDayOfMonth(1, '2026-03-02')).toBe('2026-04-01');
    // Short months are passed over, so a series on the 31st keeps the 31st.
    expect(nextDayOfMonth(31, '2026-02-15')).toBe('2026-03-31');
    expect(nextDayOfMonth(31, '2026-04-30')).toBe('2026-05-31');
    expect(nextDayOfMonth(30, '2026-01-31')).toBe('2026-03-30');
    expect(nextDayOfMonth(29, '2027-12-30')).toBe('2028-01-29');
  });
});
