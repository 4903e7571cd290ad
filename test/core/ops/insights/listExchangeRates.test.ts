import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

describe('list_exchange_rates', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    h.clock.now = new Date('2024-07-01T12:00:00Z');
    await loadEcbFixtures(h.db);
    for (const [name, amount, currency] of [
      ['Hulu', '7.99', 'USD'],
      ['Peacock', '5.99', 'USD'],
      ['BBC', '10.00', 'GBP'],
      ['Flow', '5000', 'ARS'],
    ] as const) {
      await h.core.invoke('create_subscription', h.owner, {
        name,
        amount,
        currency,
        first_charge_date: '2024-06-01',
      });
    }
  });
  afterEach(async () => h.close());

  it('lists each currency in use with the rate serving today, its source and date, and the ones with no rate', async () => {
    const { output } = await h.core.invoke('list_exchange_rates', h.owner, {});
    expect(output.date).toBe('2024-07-01');
    expect(output.items.map((i) => i.currency)).toEqual(['ARS', 'EUR', 'GBP', 'USD']);
    expect(output.items.find((i) => i.currency === 'USD')).toEqual({
      currency: 'USD',
      subscription_count: 2,
      missing: false,
      per_eur: '1.0705',
      source: 'ecb',
      rate_date: '2024-06-28',
      stale: true,
      in_household_currency: '0.934143',
      ecb: { per_eur: '1.0705', date: '2024-06-28' },
      manual: null,
    });
    expect(output.items.find((i) => i.currency === 'ARS')).toMatchObject({
      missing: true,
      per_eur: null,
      source: null,
      in_household_currency: null,
      subscription_count: 1,
    });
  });

  it('shows a manual rate in use beside the ECB one, and the rates of an earlier date', async () => {
    await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'USD',
      rate: '1.1',
      date: '2024-04-01',
    });
    const { output } = await h.core.invoke('list_exchange_rates', h.owner, {});
    expect(output.items.find((i) => i.currency === 'USD')).toMatchObject({
      per_eur: '1.1',
      source: 'manual',
      rate_date: '2024-04-01',
      ecb: { per_eur: '1.0705', date: '2024-06-28' },
      manual: { per_eur: '1.1', date: '2024-04-01' },
    });
    const earlier = await h.core.invoke('list_exchange_rates', h.owner, { date: '2024-03-13' });
    expect(earlier.output.items.find((i) => i.currency === 'USD')).toMatchObject({
      per_eur: '1.0939',
      source: 'ecb',
      stale: false,
      manual: null,
    });
  });
});
