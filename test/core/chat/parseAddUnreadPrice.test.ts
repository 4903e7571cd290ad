import { describe, expect, it } from 'vitest';

import { parseAddLine } from '../../../core/chat/parseAdd.ts';

const read = (line: string) => {
  const p = parseAddLine(line, '2026-03-02', 'EUR');
  return { name: p.name, amount: p.amount, unreadPrice: p.unreadPrice };
};

describe('parseAddLine: words where the price goes that do not read as one', () => {
  it('takes the word before a currency or cycle word as an unreadable price when it tries to be a number', () => {
    expect(read('Gym twelve EUR monthly')).toEqual({
      name: 'Gym',
      amount: null,
      unreadPrice: 'twelve',
    });
    expect(read('Gimnasio doce EUR mensual')).toMatchObject({
      name: 'Gimnasio',
      unreadPrice: 'doce',
    });
    expect(read('Gym 12.5.0 EUR monthly')).toMatchObject({ name: 'Gym', unreadPrice: '12.5.0' });
    expect(read('Gym for twelve EUR')).toMatchObject({ name: 'Gym', unreadPrice: 'twelve' });
  });

  it('takes a lower-case word after a capitalised name, before a currency or cycle, as the price', () => {
    expect(read('Spotify abc EUR monthly')).toMatchObject({ name: 'Spotify', unreadPrice: 'abc' });
  });

  it('takes what follows a price word as the price, with or without a currency', () => {
    expect(read('HBO precio raro')).toEqual({ name: 'HBO', amount: null, unreadPrice: 'raro' });
    expect(read('Gym price twelve')).toMatchObject({ name: 'Gym', unreadPrice: 'twelve' });
  });

  it('leaves a plain name a name: no price word, or capitalised words before a currency', () => {
    expect(read('Disney plus')).toEqual({ name: 'Disney plus', amount: null, unreadPrice: null });
    expect(read('Netflix Premium EUR monthly')).toMatchObject({
      name: 'Netflix Premium',
      unreadPrice: null,
    });
    expect(read('spotify abc EUR')).toMatchObject({ name: 'spotify abc', unreadPrice: null });
    expect(read('Gym EUR monthly')).toMatchObject({ name: 'Gym', unreadPrice: null });
  });

  it('never calls words unreadable when the line has a price', () => {
    expect(read('Apple music 10.99 EUR monthly')).toEqual({
      name: 'Apple music',
      amount: '10.99',
      unreadPrice: null,
    });
    expect(read('Microsoft 365 69.99')).toMatchObject({ name: 'Microsoft 365', unreadPrice: null });
  });
});
