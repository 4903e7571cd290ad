import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

describe('get_upcoming', () => {
  let h: TestHousehold;
  const ids: Record<string, string> = {};
  beforeEach(async () => {
    h = await createTestHousehold();
    const add = async (input: Record<string, unknown>): Promise<string> =>
      (await h.core.invoke('create_subscription', h.owner, input)).output.id;
    ids.netflix = await add({ name: 'Netflix', amount: '15.99', first_charge_date: '2026-01-05' });
    ids.max = await add({
      name: 'Max',
      amount: '9.99',
      status: 'trial',
      trial_ends_on: '2026-03-09',
      first_charge_date: '2026-03-09',
    });
    ids.gym = await add({
      name: 'Gym',
      amount: '30.00',
      first_charge_date: '2025-06-15',
      contract_ends_on: '2026-03-31',
      notice_days: 14,
    });
    ids.paused = await add({ name: 'Paused', amount: '8.00', first_charge_date: '2026-01-10' });
    await h.core.invoke('pause_subscription', h.owner, { id: ids.paused });
  });
  afterEach(async () => h.close());

  it('lists charges, trial ends and notice deadlines of the next 30 days in date order, with a total of the charges', async () => {
    const { output } = await h.core.invoke('get_upcoming', h.owner, {});
    expect(output).toMatchObject({ from: '2026-03-02', to: '2026-04-01', currency: 'EUR' });
    expect(
      output.items.map((i) => [
        i.date,
        i.kind,
        i.subscription_name,
        i.amount,
        i.converted,
        i.status,
      ]),
    ).toEqual([
      ['2026-03-05', 'charge', 'Netflix', '15.99', '15.99', 'expected'],
      ['2026-03-09', 'trial_end', 'Max', '9.99', '9.99', null],
      ['2026-03-09', 'charge', 'Max', '9.99', '9.99', 'expected'],
      ['2026-03-15', 'charge', 'Gym', '30.00', '30.00', 'expected'],
      ['2026-03-17', 'notice_deadline', 'Gym', '30.00', '30.00', null],
    ]);
    expect(output.total).toBe('55.98');
  });

  it('drops skipped charges, shows paid ones with their amount, and looks only as far as asked', async () => {
    await h.core.invoke('skip_charge', h.owner, {
      subscription_id: ids.netflix,
      due_date: '2026-03-05',
    });
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: ids.max,
      due_date: '2026-03-09',
      amount: '4.99',
    });
    const { output } = await h.core.invoke('get_upcoming', h.owner, { days: 7 });
    expect(output.to).toBe('2026-03-09');
    expect(
      output.items.map((i) => [i.date, i.kind, i.subscription_name, i.amount, i.status]),
    ).toEqual([
      ['2026-03-09', 'trial_end', 'Max', '9.99', null],
      ['2026-03-09', 'charge', 'Max', '4.99', 'paid'],
    ]);
    expect(output.total).toBe('4.99');
  });

  it('refuses more than 366 days', async () => {
    await expect(h.core.invoke('get_upcoming', h.owner, { days: 367 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it("converts foreign charges at today's rate and leaves unconvertible ones out of the total", async () => {
    await loadEcbFixtures(h.db);
    h.clock.now = new Date('2024-07-01T12:00:00Z');
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Hulu',
      amount: '10.00',
      currency: 'USD',
      first_charge_date: '2024-07-10',
    });
    const ars = await h.core.invoke('create_subscription', h.owner, {
      name: 'Flow',
      amount: '5000.00',
      currency: 'ARS',
      first_charge_date: '2024-07-12',
    });
    const { output } = await h.core.invoke('get_upcoming', h.owner, { days: 14 });
    expect(
      output.items.map((i) => [i.subscription_name, i.amount, i.currency, i.converted]),
    ).toEqual([
      ['Hulu', '10.00', 'USD', '9.34'],
      ['Flow', '5000.00', 'ARS', null],
    ]);
    expect(output.total).toBe('9.34');
    expect(output.conversion).toEqual({
      rates: [
        { currency: 'USD', rate: '0.934143', date: '2024-06-28', source: 'ecb', stale: true },
      ],
      partial: true,
      left_out: [{ subscription_id: ars.output.id, amount: '5000.00', currency: 'ARS' }],
    });
  });

  describe('from the read model (core/ops/insights/_lib/upcoming.ts)', () => {
    const rows = (items: Array<{ date: string; kind: string; subscription_name: string }>) =>
      items.map((i) => `${i.date} ${i.kind} ${i.subscription_name}`);

    it('answers a shorter window with the start of a longer one asked before, its total its own', async () => {
      const month = (await h.core.invoke('get_upcoming', h.owner, { days: 30 })).output;
      const week = (await h.core.invoke('get_upcoming', h.owner, { days: 7 })).output;
      expect(rows(week.items)).toEqual([
        '2026-03-05 charge Netflix',
        '2026-03-09 trial_end Max',
        '2026-03-09 charge Max',
      ]);
      expect(week.items).toEqual(month.items.filter((i) => i.date <= week.to));
      expect(week.total).toBe('25.98');
      const year = (await h.core.invoke('get_upcoming', h.owner, { days: 366 })).output;
      expect(year.items.filter((i) => i.date <= month.to)).toEqual(month.items);
    });

    it('keeps for get_context (running only) and get_upcoming (every status) what each asks, in either order', async () => {
      await h.core.invoke('pause_subscription', h.owner, { id: ids.gym });
      const briefing = async () =>
        (await h.core.invoke('get_context', h.owner, {})).output.upcoming.items.map(
          (i) => `${i.date} ${i.kind} ${i.name}`,
        );
      const before = await briefing();
      expect(before).not.toContain('2026-03-17 notice_deadline Gym');
      const upcoming = (await h.core.invoke('get_upcoming', h.owner, {})).output;
      // Paused: no charge, but the notice deadline of its contract still comes.
      expect(rows(upcoming.items)).toContain('2026-03-17 notice_deadline Gym');
      expect(rows(upcoming.items)).not.toContain('2026-03-15 charge Gym');
      expect(await briefing()).toEqual(before);
    });

    it('converts at rates recorded after the day’s series were derived (it holds no rate)', async () => {
      h.clock.now = new Date('2024-07-01T12:00:00Z');
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Hulu',
        amount: '10.00',
        currency: 'USD',
        first_charge_date: '2024-07-10',
      });
      const hulu = async () =>
        (await h.core.invoke('get_upcoming', h.owner, { days: 14 })).output.items.find(
          (i) => i.subscription_name === 'Hulu',
        )?.converted;
      expect(await hulu()).toBeNull();
      await loadEcbFixtures(h.db); // written outside any op: no change event
      expect(await hulu()).toBe('9.34');
    });
  });
});
