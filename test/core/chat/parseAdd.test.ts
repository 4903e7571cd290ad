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
      every: 1,
      date: '2026-03-05',
      trial: null,
      unknown: [],
      unsure: false,
      amountTyped: '15.99',
      unreadPrice: null,
    });
  });

  it('takes every word before the amount as the name, a decimal comma, symbols and Spanish words', () => {
    expect(parseAddLine('Disney Plus 8,99€ anual', today)).toEqual({
      name: 'Disney Plus',
      amount: '8.99',
      currency: 'EUR',
      cycle: 'year',
      every: 1,
      date: null,
      trial: null,
      unknown: [],
      unsure: false,
      amountTyped: '8,99€',
      unreadPrice: null,
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
    // A line that starts with its price has no name (the bot asks for one).
    expect(parseAddLine('15.99', today)).toMatchObject({ name: null, amount: '15.99' });
    expect(parseAddLine('9.99 EUR monthly', today)).toMatchObject({ name: null, cycle: 'month' });
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

describe('parseAddLine, the ways people write prices and cycles', () => {
  const today = '2026-03-02';
  const read = (line: string, currency?: string) => parseAddLine(line, today, currency);

  it('reads thousands separators in either convention', () => {
    expect(read('Seguro 1.234,56 anual').amount).toBe('1234.56');
    expect(read('Adobe 1,234.50 USD').amount).toBe('1234.50');
    expect(read('Rent 1,200 monthly').amount).toBe('1200');
    expect(read('Big 1.234.567').amount).toBe('1234567');
    expect(read('Seguro 1.234,56 anual').unsure).toBe(false);
    // "1.200" is a thousand and two hundred (or a typo: it is always previewed), except in a
    // currency with three decimals.
    expect(read('Alquiler 1.200 mensual')).toMatchObject({ amount: '1200', unsure: true });
    expect(read('Rent 1,200 monthly').unsure).toBe(true);
    expect(read('Fee 1.200 KWD').amount).toBe('1.200');
    expect(read('Fee 1.200', 'KWD').amount).toBe('1.200');
    expect(read('Fee 0,500').amount).toBe('0.500');
  });

  it('takes a currency symbol or code on either side, attached or apart', () => {
    for (const line of [
      'Netflix 15.99 €',
      'Netflix € 15.99',
      'Netflix 15.99EUR',
      'Netflix EUR15.99',
    ])
      expect(read(line)).toMatchObject({ name: 'Netflix', amount: '15.99', currency: 'EUR' });
    expect(read('Globo R$29,90')).toMatchObject({ amount: '29.90', currency: 'BRL' });
    expect(read('1Password 2.99')).toMatchObject({ name: '1Password', amount: '2.99' });
  });

  it('reads cycles of several units, as a word or as "every N units"', () => {
    expect(read('iCloud 2.99 quarterly')).toMatchObject({ cycle: 'month', every: 3 });
    expect(read('Gym 30 trimestral')).toMatchObject({ cycle: 'month', every: 3 });
    expect(read('Gym 30 semestral')).toMatchObject({ cycle: 'month', every: 6 });
    expect(read('Gym 30 biweekly')).toMatchObject({ cycle: 'week', every: 2 });
    expect(read('Gym 30 every 3 months')).toMatchObject({ cycle: 'month', every: 3, unknown: [] });
    expect(read('Gym 30 cada 2 semanas')).toMatchObject({ cycle: 'week', every: 2, unknown: [] });
    expect(read('Gym 30 every month')).toMatchObject({ cycle: 'month', every: 1 });
    expect(read('Gym 30 monthly')).toMatchObject({ cycle: 'month', every: 1 });
  });

  it('reads the day of the month with the words around it', () => {
    for (const line of [
      'Gym 30 monthly on the 5th',
      'Gym 30 mensual el día 5',
      'Gym 30 monthly day 5',
      'Gym 30 mensual el 5º',
    ])
      expect(read(line)).toMatchObject({ cycle: 'month', date: '2026-03-05', unknown: [] });
    expect(read('Gym 30 day')).toMatchObject({ cycle: 'day', date: null });
  });
});

describe('parseAddLine, where the name ends and which number is the price', () => {
  const today = '2026-03-02';
  const read = (line: string, currency?: string) => parseAddLine(line, today, currency);

  it('ends the name at a cycle or currency word, so a later bare number is a day, not a price', () => {
    expect(read('Netflix monthly 5')).toMatchObject({
      name: 'Netflix',
      amount: null,
      cycle: 'month',
      date: '2026-03-05',
    });
    expect(read('Netflix monthly 15.99')).toMatchObject({ name: 'Netflix', amount: '15.99' });
    expect(read('Netflix EUR')).toMatchObject({ name: 'Netflix', amount: null, currency: 'EUR' });
  });

  it('keeps numbers that belong to the name when a written price follows', () => {
    expect(read('Microsoft 365 69.99 yearly')).toMatchObject({
      name: 'Microsoft 365',
      amount: '69.99',
    });
    expect(read('Apple One 2 personas 19,95 EUR mensual 5')).toMatchObject({
      name: 'Apple One 2 personas',
      amount: '19.95',
      unknown: [],
    });
    expect(read('24 Hour Fitness 30 monthly')).toMatchObject({
      name: '24 Hour Fitness',
      amount: '30',
    });
    expect(read('Gym 30 5')).toMatchObject({ name: 'Gym', amount: '30', date: '2026-03-05' });
  });

  it('reads "per month", "al mes" and "15.99/month"', () => {
    for (const line of ['Netflix 15.99/month', 'Netflix 15.99 per month', 'Netflix 15.99 al mes'])
      expect(read(line)).toMatchObject({ name: 'Netflix', amount: '15.99', cycle: 'month' });
    expect(read('Netflix €15.99/mo')).toMatchObject({ currency: 'EUR', cycle: 'month' });
  });

  it("reads a bare $ as the household's own dollar-sign currency, else as US dollars", () => {
    expect(read('Netflix $219 mensual 5', 'MXN').currency).toBe('MXN');
    expect(read('Spotify 129 $ mensual 5', 'ARS').currency).toBe('ARS');
    expect(read('Netflix $15', 'EUR').currency).toBe('USD');
    expect(read('Netflix US$15', 'MXN').currency).toBe('USD');
    expect(read('Netflix ¥1500', 'CNY').currency).toBe('CNY');
  });

  it('hands a negative or oversized price to the op, which refuses it clearly', () => {
    expect(read('Netflix -5 EUR mensual 5')).toMatchObject({ name: 'Netflix', amount: '-5' });
    expect(read('Big 99999999999999.99 EUR monthly 5')).toMatchObject({
      name: 'Big',
      amount: '99999999999999.99',
    });
  });
});

describe('parseAddLine, dates said in words', () => {
  const read = (line: string) => parseAddLine(line, '2026-11-30');

  it('reads a day and a month in English or Spanish, the next such day unless a year is given', () => {
    expect(read('Gym 30 monthly el 15 de marzo')).toMatchObject({
      date: '2027-03-15',
      unknown: [],
    });
    expect(read('Gym 30 yearly Dec 5')).toMatchObject({ date: '2026-12-05', unknown: [] });
    expect(read('Gym 30 yearly March 3rd 2027')).toMatchObject({ date: '2027-03-03', unknown: [] });
    expect(read('Gym 30 monthly 15 de marzo de 2028')).toMatchObject({ date: '2028-03-15' });
    // The next Feb 29 is in a leap year.
    expect(read('Gym 30 yearly el 29 de febrero')).toMatchObject({ date: '2028-02-29' });
  });

  it('reads today, tomorrow and "starting …"', () => {
    expect(read('Gym 30 monthly today').date).toBe('2026-11-30');
    expect(read('Gym 30 mensual mañana').date).toBe('2026-12-01');
    expect(read('Gym 30 monthly starting 2026-12-15')).toMatchObject({
      date: '2026-12-15',
      unknown: [],
    });
    expect(read('Gym 30 monthly desde el 5')).toMatchObject({ date: '2026-12-05', unknown: [] });
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
