import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('list_subscriptions', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    for (const [name, vendor, notes] of [
      ['Música Plus', null, null],
      ['ÉDUCATION EN LIGNE', 'Académie', null],
      ['Netflix', 'Netflix Inc.', 'shared with Ñandú'],
      ['Gym', null, '50%_off until June'],
    ] as const)
      await h.core.invoke('create_subscription', h.owner, {
        name,
        amount: '9.99',
        first_charge_date: '2026-01-10',
        ...(vendor ? { vendor } : {}),
        ...(notes ? { notes } : {}),
      });
  });
  afterEach(async () => h.close());

  const names = async (text: string, extra: Record<string, unknown> = {}): Promise<string[]> =>
    (await h.core.invoke('list_subscriptions', h.owner, { text, ...extra })).output.items.map(
      (s) => s.name,
    );

  it('finds text in name, vendor or notes, ignoring case and accents on every database', async () => {
    expect(await names('musica')).toEqual(['Música Plus']);
    expect(await names('MÚSICA')).toEqual(['Música Plus']);
    expect(await names('éducation')).toEqual(['ÉDUCATION EN LIGNE']);
    expect(await names('academie')).toEqual(['ÉDUCATION EN LIGNE']);
    expect(await names('ñandu')).toEqual(['Netflix']);
    expect(await names('nandú')).toEqual(['Netflix']);
  });

  it('takes % and _ literally', async () => {
    expect(await names('50%_')).toEqual(['Gym']);
    expect(await names('%')).toEqual(['Gym']);
    expect(await names('_')).toEqual(['Gym']);
  });

  it('counts and pages the matches, and combines text with the other filters', async () => {
    const page = await h.core.invoke('list_subscriptions', h.owner, {
      text: 'e',
      limit: 2,
      offset: 1,
    });
    expect(page.output.total).toBe(3);
    // Accented names sort among their letters: ÉDUCATION before Gym.
    expect(page.output.items.map((s) => s.name)).toEqual(['Gym', 'Netflix']);
    expect(await names('netflix', { status: 'cancelled' })).toEqual([]);
    expect(await names('netflix', { sort: 'monthly_cost', order: 'desc' })).toEqual(['Netflix']);
  });

  it("sorts names as the household's language reads them: case ignored, accents among their letters", async () => {
    for (const name of ['Ñandú TV', 'iCloud', 'Zoom', 'Óptica', 'amazon', 'Apple 10', 'Apple 9'])
      await h.core.invoke('create_subscription', h.owner, { name, amount: '1.00' });
    const all = async (): Promise<string[]> =>
      (await h.core.invoke('list_subscriptions', h.owner, { limit: 100 })).output.items.map(
        (s) => s.name,
      );
    await h.core.invoke('update_household', h.owner, { locale: 'es' });
    expect(await all()).toEqual([
      'amazon',
      'Apple 9',
      'Apple 10',
      'ÉDUCATION EN LIGNE',
      'Gym',
      'iCloud',
      'Música Plus',
      'Netflix',
      'Ñandú TV',
      'Óptica',
      'Zoom',
    ]);
    const desc = await h.core.invoke('list_subscriptions', h.owner, { order: 'desc', limit: 2 });
    expect(desc.output.items.map((s) => s.name)).toEqual(['Zoom', 'Óptica']);
  });

  it('shows a trial whose end has come as active, and filters by the status as it is today', async () => {
    const trial = await h.core.invoke('create_subscription', h.owner, {
      name: 'Max',
      amount: '9.99',
      status: 'trial',
      trial_ends_on: '2026-03-10',
      first_charge_date: '2026-03-10',
    });
    expect(trial.output.status).toBe('trial');
    const statusOf = async (status: 'trial' | 'active') =>
      (await h.core.invoke('list_subscriptions', h.owner, { status })).output.items.some(
        (s) => s.name === 'Max',
      );
    expect([await statusOf('trial'), await statusOf('active')]).toEqual([true, false]);
    h.clock.now = new Date('2026-03-10T10:00:00Z');
    const now = await h.core.invoke('get_subscription', h.owner, { id: trial.output.id });
    expect(now.output.status).toBe('active');
    expect([await statusOf('trial'), await statusOf('active')]).toEqual([false, true]);
  });
});

describe('list_subscriptions by monthly cost', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    // EUR household; 1 EUR = 1.10 USD, so 8.33 USD is about 7.57 EUR.
    await h.core.invoke('set_exchange_rate', h.owner, { currency: 'USD', rate: '1.10' });
    for (const [name, amount, currency, unit] of [
      ['Copilot', '8.33', 'USD', 'month'],
      ['Microsoft 365', '99.00', 'EUR', 'year'],
      ['Spotify', '7.99', 'EUR', 'month'],
      ['Big in yen', '1500', 'JPY', 'month'],
    ] as const)
      await h.core.invoke('create_subscription', h.owner, {
        name,
        amount,
        currency,
        cycle: { unit },
        first_charge_date: '2026-01-10',
      });
  });
  afterEach(async () => h.close());

  const byCost = async (extra: Record<string, unknown> = {}): Promise<string[]> =>
    (
      await h.core.invoke('list_subscriptions', h.owner, { sort: 'monthly_cost', ...extra })
    ).output.items.map((s) => s.name);

  it('compares what each costs in the household currency, and puts those it cannot convert last', async () => {
    // Copilot ≈ 7.57 EUR < Spotify 7.99 < Microsoft 365 8.25; no JPY rate: its cost is unknown.
    expect(await byCost()).toEqual(['Copilot', 'Spotify', 'Microsoft 365', 'Big in yen']);
    expect(await byCost({ order: 'desc' })).toEqual([
      'Big in yen',
      'Microsoft 365',
      'Spotify',
      'Copilot',
    ]);
  });

  it('orders the same way with free text (the query path) as from the read model', async () => {
    expect(await byCost({ text: 'i' })).toEqual([
      'Copilot',
      'Spotify',
      'Microsoft 365',
      'Big in yen',
    ]);
  });

  it('follows a new rate at once', async () => {
    await h.core.invoke('set_exchange_rate', h.owner, { currency: 'USD', rate: '1.00' });
    // 8.33 EUR now: above Spotify and Microsoft 365.
    expect(await byCost()).toEqual(['Spotify', 'Microsoft 365', 'Copilot', 'Big in yen']);
    await h.core.invoke('set_exchange_rate', h.owner, { currency: 'JPY', rate: '160' });
    // 1500 JPY ≈ 9.38 EUR.
    expect(await byCost()).toEqual(['Spotify', 'Microsoft 365', 'Copilot', 'Big in yen']);
    await h.core.invoke('set_exchange_rate', h.owner, { currency: 'JPY', rate: '200' });
    // 7.50 EUR.
    expect(await byCost()).toEqual(['Big in yen', 'Spotify', 'Microsoft 365', 'Copilot']);
  });

  it('finds a subscription by its whole name, up to the longest a name may be', async () => {
    const name = `Premium ${'Streaming Family Bundle '.repeat(4)}Plus Extra`.slice(0, 120);
    await h.core.invoke('create_subscription', h.owner, { name, amount: '5.00' });
    expect(await byCost({ text: name })).toEqual([name]);
  });
});
