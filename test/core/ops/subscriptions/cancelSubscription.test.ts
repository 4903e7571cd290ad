import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('cancel_subscription', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('stops a trial before its first charge: nothing is ever charged', async () => {
    const trial = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Max',
        amount: '9.99',
        status: 'trial',
        trial_ends_on: '2026-03-20',
        first_charge_date: '2026-03-20',
      })
    ).output;
    const { output } = await h.core.invoke('cancel_subscription', h.owner, { id: trial.id });
    expect(output).toMatchObject({
      status: 'cancelled',
      cancelled_on: '2026-03-02',
      next_charge_date: null,
    });
    const charges = await h.core.invoke('list_charges', h.owner, {
      from: '2026-03-01',
      to: '2027-02-28',
      subscription_id: trial.id,
    });
    expect(charges.output.items).toEqual([]);
    // It can still be renamed afterwards: a cancellation before the start is a valid state.
    await h.core.invoke('update_subscription', h.owner, { id: trial.id, name: 'Max (tried)' });
  });

  it('counts a subscription cancelled for a later day in today’s totals until that day', async () => {
    const gym = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Gym',
        amount: '40.00',
        first_charge_date: '2026-01-05',
      })
    ).output;
    await h.core.invoke('cancel_subscription', h.owner, {
      id: gym.id,
      effective_date: '2026-04-30',
    });
    expect((await h.core.invoke('get_totals', h.owner, {})).output.totals.monthly).toBe('40.00');
    h.clock.now = new Date('2026-05-02T10:00:00Z');
    expect((await h.core.invoke('get_totals', h.owner, {})).output.totals.monthly).toBe('0.00');
  });

  it('gives a trial its first charge after the trial, as the series does', async () => {
    const { output } = await h.core.invoke('create_subscription', h.owner, {
      name: 'T',
      amount: '20.00',
      status: 'trial',
      trial_ends_on: '2026-03-15',
      first_charge_date: '2026-03-02',
    });
    expect(output.next_charge_date).toBe('2026-04-02');
    const upcoming = await h.core.invoke('list_charges', h.owner, {
      from: '2026-03-01',
      to: '2026-04-30',
      subscription_id: output.id,
    });
    expect(upcoming.output.items.map((c) => c.due_date)).toEqual(['2026-04-02']);
  });

  it('resumes without making the paused months count: their charges are recorded as skipped', async () => {
    const gym = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Gym',
        amount: '30.00',
        first_charge_date: '2025-12-15',
      })
    ).output;
    h.clock.now = new Date('2026-01-20T10:00:00Z');
    await h.core.invoke('pause_subscription', h.owner, { id: gym.id });
    h.clock.now = new Date('2026-03-02T10:00:00Z');
    const period = { from: '2026-01-01', to: '2026-03-01' };
    const before = (await h.core.invoke('get_totals', h.owner, period)).output.totals;
    await h.core.invoke('resume_subscription', h.owner, { id: gym.id });
    expect((await h.core.invoke('get_totals', h.owner, period)).output.totals).toEqual(before);
    const charges = await h.core.invoke('list_charges', h.owner, {
      from: '2026-01-01',
      to: '2026-03-31',
      subscription_id: gym.id,
    });
    expect(charges.output.items.map((c) => `${c.due_date}:${c.status}`)).toEqual([
      '2026-01-15:expected',
      '2026-02-15:skipped',
      '2026-03-15:expected',
    ]);
  });
});
