import { describe, expect, it } from 'vitest';

import { readEdit, splitEdit } from '../../../core/chat/editValue.ts';
import { EDIT_FIELDS } from '../../../core/chat/subscriptionActions.ts';
import { LOCALES, t } from '../../../core/i18n/index.ts';
import {
  parseAddLine,
  readCycle,
  readDate,
  readPrice,
  readTrialEnd,
} from '../../../core/chat/parseAdd.ts';
import type { Subscription } from '../../../core/domain/schemas.ts';

/** 2026-03-02 is a Monday. */
const today = '2026-03-02';

describe('parseAddLine reads more', () => {
  it('reads a free trial said in English or Spanish, as its last day', () => {
    const trial = (line: string) => parseAddLine(line, today, 'EUR');
    expect(trial('Netflix 15.99 trial 7 days')).toMatchObject({
      name: 'Netflix',
      amount: '15.99',
      trial: '2026-03-09',
      unknown: [],
    });
    expect(trial('Netflix 15.99 free trial until 2026-12-15')).toMatchObject({
      trial: '2026-12-15',
      unknown: [],
    });
    expect(trial('Netflix 15,99 prueba hasta el 15 de diciembre')).toMatchObject({
      trial: '2026-12-15',
      unknown: [],
    });
    expect(trial('Netflix 15,99 7 días gratis')).toMatchObject({
      trial: '2026-03-09',
      unknown: [],
    });
    expect(trial('Disney+ 8.99 7-day trial')).toMatchObject({
      name: 'Disney+',
      trial: '2026-03-09',
    });
    expect(trial('Spotify 9.99 1 month free')).toMatchObject({ trial: '2026-04-02', unknown: [] });
    expect(trial('HBO 9.99 prueba de 7 días')).toMatchObject({ trial: '2026-03-09', unknown: [] });
    // Before the price, the trial still ends the name.
    expect(trial('Netflix trial 7 days')).toMatchObject({
      name: 'Netflix',
      amount: null,
      trial: '2026-03-09',
    });
    expect(trial('Netflix 15.99 EUR monthly 5')).toMatchObject({ trial: null });
  });

  it('keeps filler words between name and price out of the name, in both languages', () => {
    expect(parseAddLine('Netflix for 15.99', today)).toMatchObject({
      name: 'Netflix',
      amount: '15.99',
      unknown: [],
    });
    expect(parseAddLine('Gym membership at 30 EUR', today)).toMatchObject({
      name: 'Gym membership',
      amount: '30',
      currency: 'EUR',
      unknown: [],
    });
    expect(parseAddLine('Netflix por 15,99', today)).toMatchObject({
      name: 'Netflix',
      amount: '15.99',
    });
    expect(parseAddLine('Gimnasio a 30 EUR', today)).toMatchObject({
      name: 'Gimnasio',
      amount: '30',
    });
    // A capital A may be a plan's name.
    expect(parseAddLine('Plan A 9.99', today)).toMatchObject({ name: 'Plan A' });
  });

  it('reads per mo, every other month and a weekday said in words', () => {
    expect(parseAddLine('Netflix 15.99 per mo', today)).toMatchObject({
      cycle: 'month',
      every: 1,
      unknown: [],
    });
    expect(parseAddLine('Netflix 15.99 every other month', today)).toMatchObject({
      cycle: 'month',
      every: 2,
      unknown: [],
    });
    expect(parseAddLine('Agua 20 cada dos meses', today)).toMatchObject({
      cycle: 'month',
      every: 2,
      unknown: [],
    });
    expect(parseAddLine('Netflix 15.99 next friday', today)).toMatchObject({
      date: '2026-03-06',
      unknown: [],
    });
    expect(parseAddLine('Netflix 15,99 el próximo viernes', today)).toMatchObject({
      date: '2026-03-06',
      unknown: [],
    });
    // "next monday" on a Monday is a week ahead.
    expect(parseAddLine('Netflix 15.99 next monday', today)).toMatchObject({ date: '2026-03-09' });
  });
});

describe('one field read alone (Edit)', () => {
  it('reads a price with the day it takes effect, a cycle, a date and a trial end', () => {
    expect(readPrice('17.99 from March', today, 'EUR')).toEqual({
      amount: '17.99',
      currency: null,
      from: '2026-03-01',
      unsure: false,
    });
    expect(readPrice('17,99 € desde abril', today, 'EUR')).toEqual({
      amount: '17.99',
      currency: 'EUR',
      from: '2026-04-01',
      unsure: false,
    });
    // "1.200" reads two ways: a thousand and two hundred, said as unsure.
    expect(readPrice('1.200', today, 'EUR')).toEqual({
      amount: '1200',
      currency: null,
      from: null,
      unsure: true,
    });
    expect(readPrice('17.99 from May 5', today, 'EUR')).toMatchObject({ from: '2026-05-05' });
    expect(readPrice('seventeen', today, 'EUR')).toBeNull();
    expect(readPrice('17.99 monthly', today, 'EUR')).toBeNull();
    expect(readCycle('every 3 months')).toEqual({ unit: 'month', every: 3 });
    expect(readCycle('every other week')).toEqual({ unit: 'week', every: 2 });
    expect(readCycle('cada año')).toEqual({ unit: 'year', every: 1 });
    expect(readCycle('sometimes')).toBeNull();
    expect(readDate('5', today)).toBe('2026-03-05');
    expect(readDate('15 de abril', today)).toBe('2026-04-15');
    expect(readDate('February', today)).toBe('2027-02-01');
    expect(readDate('whenever', today)).toBeNull();
    expect(readTrialEnd('7 days', today)).toBe('2026-03-09');
    expect(readTrialEnd('hasta el 15 de diciembre', today)).toBe('2026-12-15');
  });

  it('splits /edit lines into name, field and value', () => {
    expect(splitEdit('Netflix price 17.99 from March')).toEqual({
      name: 'Netflix',
      field: 'price',
      value: '17.99 from March',
    });
    expect(splitEdit('Amazon Prime método de pago Visa')).toEqual({
      name: 'Amazon Prime',
      field: 'method',
      value: 'Visa',
    });
    expect(splitEdit('Netflix precio a 12,50')).toEqual({
      name: 'Netflix',
      field: 'price',
      value: '12,50',
    });
    expect(splitEdit('Netflix')).toEqual({ name: 'Netflix', field: null, value: '' });
  });

  it('reads every field by the label its Edit button shows, in both languages', () => {
    for (const locale of LOCALES)
      for (const field of EDIT_FIELDS) {
        const label = t(locale, `chat.sub.field.${field}`);
        expect(splitEdit(`Netflix Kids ${label} x`), `${locale}: ${label}`).toEqual({
          name: 'Netflix Kids',
          field,
          value: 'x',
        });
      }
  });

  it('reads the labels of the card’s lines and of a preview, and the obvious synonyms', () => {
    /** "Next charge: {date}" → "Next charge". */
    const label = (key: string, locale: 'en' | 'es') =>
      t(locale, key, { date: '', name: '', tags: '', shares: '', notes: '' })
        .split(':')[0]!
        .replace(/^\P{L}+/u, '');
    const said = {
      date: ['chat.card.next_charge', 'assistant.field.first_charge_date'],
      trial: ['chat.card.trial_ends', 'assistant.field.trial_ends_on'],
      method: ['chat.sub.line.method', 'assistant.field.payment_method_id'],
      category: ['chat.card.category', 'assistant.field.category_id'],
      tags: ['chat.sub.line.tags', 'assistant.field.tags'],
      shares: ['chat.sub.line.shares', 'assistant.field.shares'],
      notes: ['chat.sub.line.notes', 'assistant.field.notes'],
      price: ['assistant.field.amount_minor'],
      cycle: ['assistant.field.cycle_unit'],
    } as const;
    for (const locale of LOCALES)
      for (const [field, keys] of Object.entries(said))
        for (const key of keys)
          expect(splitEdit(`Filmin ${label(key, locale)}: 10`).field, `${locale} ${key}`).toBe(
            field,
          );
    const cases: Array<[string, string, string]> = [
      ['Netflix billing date 2027-02-10', 'date', '2027-02-10'],
      ['Filmin fecha de cobro 10', 'date', '10'],
      ['Filmin free trial 7 days', 'trial', '7 days'],
      ['Filmin next charge 2027-01-20', 'date', '2027-01-20'],
      ['Filmin Next charge: 2027-01-20', 'date', '2027-01-20'],
      ['Filmin próximo cobro el 5', 'date', 'el 5'],
      ['Filmin día de pago 5', 'date', '5'],
      ['Filmin pago Visa', 'method', 'Visa'],
      ['Filmin medio de pago Visa', 'method', 'Visa'],
      ['Filmin prueba gratuita 7 días', 'trial', '7 días'],
      ['Filmin periodo de prueba hasta el 15 de abril', 'trial', 'hasta el 15 de abril'],
      ['Filmin cost shares Ana 50, Ben 50', 'shares', 'Ana 50, Ben 50'],
      ['Filmin billing cycle quarterly', 'cycle', 'quarterly'],
    ];
    for (const [line, field, value] of cases)
      expect(splitEdit(line), line).toEqual({
        name: line.split(' ')[0],
        field,
        value,
      });
  });

  it('turns a value into update_subscription arguments, or the field’s own reason', () => {
    const sub = { id: 'sub_1', name: 'Netflix', currency: 'EUR' } as Pick<
      Subscription,
      'id' | 'name' | 'currency'
    >;
    const members = new Map([
      ['mem_a', 'Ana'],
      ['mem_b', 'Ben'],
    ]);
    const read = (field: Parameters<typeof readEdit>[1], value: string) =>
      readEdit(sub, field, value, { today, members });
    expect(read('price', '17.99 from April')).toEqual({
      ok: true,
      args: { id: 'sub_1', amount: '17.99', price_effective_date: '2026-04-01' },
    });
    expect(read('price', '20 USD')).toEqual({
      ok: true,
      args: { id: 'sub_1', amount: '20', currency: 'USD' },
    });
    expect(read('tags', 'family, #tv')).toEqual({
      ok: true,
      args: { id: 'sub_1', tags: ['family', 'tv'] },
    });
    expect(read('category', 'ninguna')).toEqual({
      ok: true,
      args: { id: 'sub_1', category_id: null },
    });
    expect(read('shares', 'Ana 60, ben 40')).toEqual({
      ok: true,
      args: {
        id: 'sub_1',
        shares: [
          { member_id: 'mem_a', percent: '60' },
          { member_id: 'mem_b', percent: '40' },
        ],
      },
    });
    expect(read('trial', 'none')).toEqual({
      ok: true,
      args: { id: 'sub_1', status: 'active', trial_ends_on: null },
    });
    expect(read('cycle', 'sometimes')).toEqual({
      ok: false,
      key: 'chat.sub.bad.cycle',
      params: { text: 'sometimes', name: 'Netflix' },
    });
  });
});
