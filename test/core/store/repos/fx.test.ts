import type { Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { loadRateBook } from '../../../../core/store/repos/fx.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

describe('loadRateBook', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    await loadEcbFixtures(h.db);
  });
  afterEach(async () => h.close());

  const manual = (householdId: string, currency: string, date: string, perEur: number) =>
    h.db.knex('fx_rates').insert({
      id: `m-${householdId}-${currency}-${date}`,
      household_id: householdId,
      date,
      currency,
      per_eur: perEur,
      source: 'manual',
    });

  it('loads the rates inside the range plus the newest one before it, per source and currency', async () => {
    const book = await loadRateBook(
      h.db.knex,
      h.householdId,
      ['USD', 'GBP', 'EUR'],
      '2024-05-01',
      '2024-07-31',
    );
    expect(book.rateOn('USD', '2024-05-01')).toMatchObject({
      date: '2024-03-13',
      per_eur: 1.0939,
      stale: true,
    });
    expect(book.rateOn('GBP', '2024-07-31')).toMatchObject({
      date: '2024-06-28',
      per_eur: 0.84638,
    });
    expect(book.rateOn('JPY', '2024-07-31')).toBeNull();
  });

  it("takes this household's manual rates and never another household's", async () => {
    await manual(h.householdId, 'USD', '2024-01-01', 1.2);
    await manual('other_household', 'GBP', '2024-06-01', 0.5);
    await manual('other_household', 'ARS', '2024-06-01', 950);
    const book = await loadRateBook(
      h.db.knex,
      h.householdId,
      ['USD', 'GBP', 'ARS'],
      '2024-06-28',
      '2024-06-28',
    );
    expect(book.rateOn('USD', '2024-06-28')).toMatchObject({
      source: 'manual',
      per_eur: 1.2,
      date: '2024-01-01',
    });
    expect(book.rateOn('GBP', '2024-06-28')).toMatchObject({ source: 'ecb', per_eur: 0.84638 });
    expect(book.rateOn('ARS', '2024-06-28')).toBeNull();
  });

  it('asks nothing of the database for euros only', async () => {
    const untouchable = (() => {
      throw new Error('queried the database');
    }) as unknown as Knex;
    const book = await loadRateBook(
      untouchable,
      h.householdId,
      ['EUR'],
      '2024-06-28',
      '2024-06-28',
    );
    expect(book.crossRate('EUR', 'EUR', '2024-06-28')).toEqual({ rate: 1, legs: [] });
  });
});
