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
