import { describe, expect, it } from 'vitest';

import { currencyOfSymbol } from '../../../core/imports/currencySymbols.ts';
import {
  readWallos,
  type WallosOptions,
  wallosSubscriptions,
} from '../../../core/imports/wallos.ts';

const EUR: WallosOptions = { locale: 'en', householdCurrency: 'EUR' };

/** One item of Wallos's JSON export, with the fields a test doesn't care about filled in. */
function exported(fields: Record<string, unknown>) {
  return {
    Name: 'Netflix',
    'Payment Cycle': 'Monthly',
    'Next Payment': '2026-03-15',
    Renewal: 'Automatic',
    Category: 'Entertainment',
    'Payment Method': 'Credit Card',
    'Paid By': 'ana',
    Price: '€17.99',
    Notes: '',
    URL: '',
    State: 'Enabled',
    Notifications: 'Enabled',
    'Cancellation Date': '',
    Active: 'Yes',
    ...fields,
  };
}

function one(fields: Record<string, unknown>, options: WallosOptions = EUR) {
  const [item] = readWallos([exported(fields)], options);
  if (!item) throw new Error('no item');
  return item;
}

describe('wallosSubscriptions', () => {
  it('recognises the exported array, the endpoint response and an empty export', () => {
    expect(wallosSubscriptions([exported({})])).toHaveLength(1);
    expect(
      wallosSubscriptions({ success: true, subscriptions: [{ id: 1, name: 'Netflix' }] }),
    ).toHaveLength(1);
    expect(wallosSubscriptions([])).toEqual([]);
  });

  it('does not take other JSON for a Wallos export', () => {
    expect(wallosSubscriptions([{ title: 'x' }])).toBeNull();
    expect(wallosSubscriptions({ subscriptions: [] })).toBeNull();
    expect(wallosSubscriptions('Netflix')).toBeNull();
  });
});

describe('readWallos', () => {
  it('maps an exported item to a subscription', () => {
    const item = one({ Notes: 'Premium plan', URL: 'https://www.netflix.com' });
    expect(item.problems).toEqual([]);
    expect(item.fields).toEqual({
      name: 'Netflix',
      amount: '17.99',
      currency: 'EUR',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2026-03-15',
      status: 'active',
      cancelled_on: null,
      contract_ends_on: null,
      category: 'Entertainment',
      payment_method: 'Credit Card',
      notes: 'Premium plan',
      url: 'https://www.netflix.com',
    });
  });

  it('reads payment cycles as Wallos writes them', () => {
    const cycle = (text: string) => one({ 'Payment Cycle': text }).fields?.cycle;
    expect(cycle('Daily')).toEqual({ unit: 'day', every: 1 });
    expect(cycle('Weekly')).toEqual({ unit: 'week', every: 1 });
    expect(cycle('Yearly')).toEqual({ unit: 'year', every: 1 });
    expect(cycle('Every 3 Months')).toEqual({ unit: 'month', every: 3 });
    expect(cycle('Every 2 Weeks')).toEqual({ unit: 'week', every: 2 });
    expect(one({ 'Payment Cycle': 'One-time' }).problems).toEqual([
      { field: 'Payment Cycle', message: "A one-time payment isn't a subscription." },
    ]);
    expect(one({ 'Payment Cycle': 'Every 2 ' }).problems).toEqual([
      { field: 'Payment Cycle', message: 'Unknown payment cycle "Every 2".' },
    ]);
    expect(one({ 'Payment Cycle': undefined }).problems[0]?.message).toMatch(/no payment cycle/);
  });

  it('tells the currency from the price symbol or code', () => {
    const currency = (price: string, options: WallosOptions = EUR) =>
      one({ Price: price }, options).fields?.currency;
    expect(currency('£5.99')).toBe('GBP');
    expect(currency('9.99 €')).toBe('EUR');
    expect(currency('CHF 12.5')).toBe('CHF');
    expect(currency('R$20')).toBe('BRL');
    expect(currency('kr99', { locale: 'en', householdCurrency: 'SEK' })).toBe('SEK');
    expect(currency('$10', { ...EUR, currency: 'CAD' })).toBe('CAD');
    expect(one({ Price: '¤3' }).problems[0]).toEqual({
      field: 'Price',
      message: 'Can\'t tell which currency "¤" is. Use an ISO code such as "EUR".',
    });
    expect(one({ Price: 'free' }).problems[0]).toEqual({
      field: 'Price',
      message: 'Must be a price such as "€9.99", got "free".',
    });
  });

  it('asks which currency a shared symbol means when the household currency is not one of them', () => {
    const item = one({ Price: '$10' });
    expect(item.fields).toBeNull();
    expect(item.problems).toEqual([
      {
        field: 'Price',
        message:
          '"$" is used by several currencies (USD, AUD, CAD, MXN, ARS, CLP, COP, NZD, SGD, HKD). Import again with currency set to the right one.',
      },
    ]);
    expect(one({ Price: '$10' }, { locale: 'en', householdCurrency: 'USD' }).fields?.currency).toBe(
      'USD',
    );
  });

  it('assumes the household currency for a price without a symbol, and says so', () => {
    const item = one({ Price: '7' });
    expect(item.fields?.currency).toBe('EUR');
    expect(item.warnings).toEqual([
      { field: 'Price', message: "The file doesn't say the currency; EUR was assumed." },
    ]);
  });

  it("turns disabled subscriptions into cancelled ones, and an active one's cancellation date into a contract end", () => {
    expect(
      one({ Active: 'No', State: 'Disabled', 'Cancellation Date': '2026-04-01' }).fields,
    ).toMatchObject({ status: 'cancelled', cancelled_on: '2026-04-01', contract_ends_on: null });
    const early = one({ Active: 'No', State: 'Disabled', 'Cancellation Date': '2026-01-20' });
    expect(early.fields).toMatchObject({ status: 'cancelled', cancelled_on: null });
    expect(early.warnings[0]?.message).toBe(
      'The cancellation date 2026-01-20 is before the next payment and was left out.',
    );
    expect(one({ 'Cancellation Date': '2026-06-30' }).fields).toMatchObject({
      status: 'active',
      contract_ends_on: '2026-06-30',
    });
  });

  it('completes bare domains and drops links that are not web addresses', () => {
    expect(one({ URL: 'amazon.es' }).fields?.url).toBe('https://amazon.es');
    const junk = one({ URL: 'ask Luis' });
    expect(junk.fields?.url).toBeNull();
    expect(junk.warnings).toEqual([
      { field: 'URL', message: '"ask Luis" isn\'t a web address and was left out.' },
    ]);
  });

  it('reads "No category" as none and names the missing fields', () => {
    expect(one({ Category: 'No category' }).fields?.category).toBeNull();
    const item = one({ Name: '  ', 'Next Payment': '', Price: null });
    expect(item.problems.map((p) => p.field)).toEqual(['Name', 'Price', 'Next Payment']);
  });

  it('reads rows of the Wallos API, with their numeric cycle and frequency', () => {
    const [item] = readWallos(
      [
        {
          id: 4,
          name: 'Gym',
          price: 24.5,
          currency_id: 1,
          next_payment: '2026-03-06',
          cycle: 2,
          frequency: 2,
          category_name: 'No category',
          payment_method_name: 'Direct Debit',
          notes: '',
          url: '',
          inactive: 0,
          cancellation_date: '',
        },
      ],
      { ...EUR, currency: 'EUR' },
    );
    expect(item?.problems).toEqual([]);
    expect(item?.warnings).toEqual([]);
    expect(item?.fields).toMatchObject({
      name: 'Gym',
      amount: '24.5',
      currency: 'EUR',
      cycle: { unit: 'week', every: 2 },
      category: null,
      payment_method: 'Direct Debit',
    });
  });
});

describe('currencyOfSymbol', () => {
  it('knows ISO codes, unique symbols and shared ones', () => {
    expect(currencyOfSymbol('usd')).toEqual({ kind: 'known', currency: 'USD' });
    expect(currencyOfSymbol('zł')).toEqual({ kind: 'known', currency: 'PLN' });
    expect(currencyOfSymbol('¥')).toEqual({ kind: 'shared', candidates: ['JPY', 'CNY'] });
    expect(currencyOfSymbol('')).toEqual({ kind: 'none' });
    expect(currencyOfSymbol('XYZ')).toEqual({ kind: 'unknown' });
  });
});
