import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

describe('get_totals', () => {
  let h: TestHousehold;
  let luis: Actor;
  beforeEach(async () => {
    h = await createTestHousehold();
    luis = await h.addMember('Luis');
  });
  afterEach(async () => h.close());

  const add = async (input: Record<string, unknown>, actor: Actor = h.owner): Promise<string> =>
    (
      await h.core.invoke('create_subscription', actor, {
        first_charge_date: '2026-01-05',
        ...input,
      })
    ).output.id;

  describe('the cost now', () => {
    beforeEach(async () => {
      await add({
        name: 'Netflix',
        amount: '15.99',
        category: 'Streaming',
        tags: ['tv', 'family'],
        shares: [
          { member_id: h.ownerId, percent: '50' },
          { member_id: luis.memberId, percent: '50' },
        ],
      });
      await add({
        name: 'Spotify',
        amount: '10.99',
        category: 'Music',
        tags: ['music'],
        member_id: luis.memberId,
      });
      await add({ name: 'iCloud', amount: '29.99', cycle: { unit: 'year', every: 1 } });
      const gym = await add({ name: 'Gym', amount: '40.00', category: 'Sport' });
      await h.core.invoke('pause_subscription', h.owner, { id: gym });
      const old = await add({ name: 'Old', amount: '5.00', category: 'Sport' });
      await h.core.invoke('cancel_subscription', h.owner, {
        id: old,
        effective_date: '2026-02-01',
      });
    });

    it('averages active and trial subscriptions per month and year, leaving paused and cancelled ones out', async () => {
      const { output } = await h.core.invoke('get_totals', h.owner, {});
      expect(output).toMatchObject({
        currency: 'EUR',
        basis: 'now',
        date: '2026-03-02',
        from: null,
        to: null,
        subscription_count: 3,
        left_out_count: 0,
      });
      expect(output.totals).toEqual({ monthly: '29.48', yearly: '353.75' });
      expect(output.groups).toEqual([]);
      expect(output.conversion).toEqual({ rates: [], partial: false, left_out: [] });
    });

    it('groups by category, with a group for subscriptions without one', async () => {
      const { output } = await h.core.invoke('get_totals', h.owner, { group_by: 'category' });
      expect(output.groups.map((g) => [g.name, g.monthly, g.yearly, g.subscription_count])).toEqual(
        [
          ['Streaming', '15.99', '191.88', 1],
          ['Music', '10.99', '131.88', 1],
          ['No category', '2.50', '29.99', 1],
        ],
      );
      expect(output.groups[2]?.id).toBeNull();
    });

    it('groups by tag, counting a subscription under each of its tags', async () => {
      const { output } = await h.core.invoke('get_totals', h.owner, { group_by: 'tag' });
      expect(output.groups.map((g) => [g.name, g.monthly])).toEqual([
        ['family', '15.99'],
        ['tv', '15.99'],
        ['music', '10.99'],
        ['No tag', '2.50'],
      ]);
    });

    it('groups by member and splits the cost by shares, a subscription without shares falling on its member', async () => {
      const { output } = await h.core.invoke('get_totals', h.owner, { group_by: 'member' });
      expect(output.groups.map((g) => [g.name, g.monthly])).toEqual([
        ['Ana', '18.49'],
        ['Luis', '10.99'],
      ]);
      expect(
        output.members.map((m) => [m.name, m.monthly, m.yearly, m.subscription_count]),
      ).toEqual([
        ['Luis', '18.99', '227.82', 2],
        ['Ana', '10.49', '125.93', 2],
      ]);
    });

    it("leaves another member's private subscription out of the caller's totals", async () => {
      await add({ name: 'Secret', amount: '100.00', private: true }, luis);
      const ana = await h.core.invoke('get_totals', h.owner, {});
      expect(ana.output.totals.monthly).toBe('29.48');
      const own = await h.core.invoke('get_totals', luis, {});
      expect(own.output.totals.monthly).toBe('129.48');
    });
  });

  describe('conversion at the ECB reference rates', () => {
    beforeEach(async () => {
      await loadEcbFixtures(h.db);
      h.clock.now = new Date('2024-03-13T12:00:00Z');
    });

    it('converts 10.00 USD into 9.14 EUR on 2024-03-13 and lists the rate used', async () => {
      await add({
        name: 'Hulu',
        amount: '10.00',
        currency: 'USD',
        first_charge_date: '2024-03-01',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {});
      expect(output.totals.monthly).toBe('9.14');
      expect(output.totals.yearly).toBe('109.70');
      expect(output.conversion).toEqual({
        rates: [
          { currency: 'USD', rate: '0.91416', date: '2024-03-13', source: 'ecb', stale: false },
        ],
        partial: false,
        left_out: [],
      });
    });

    it('crosses rates in a non-euro household: 10.00 GBP is 12.80 USD', async () => {
      const usd = await createTestHousehold({ currency: 'USD' });
      try {
        await loadEcbFixtures(usd.db);
        usd.clock.now = new Date('2024-03-13T12:00:00Z');
        await usd.core.invoke('create_subscription', usd.owner, {
          name: 'BBC',
          amount: '10.00',
          currency: 'GBP',
          first_charge_date: '2024-03-01',
        });
        await usd.core.invoke('create_subscription', usd.owner, {
          name: 'Anime',
          amount: '1500',
          currency: 'JPY',
          first_charge_date: '2024-03-01',
        });
        const { output } = await usd.core.invoke('get_totals', usd.owner, {});
        expect(output.conversion.rates).toEqual([
          { currency: 'GBP', rate: '1.28015', date: '2024-03-13', source: 'ecb', stale: false },
          { currency: 'JPY', rate: '0.00675956', date: '2024-03-13', source: 'ecb', stale: false },
        ]);
        expect(output.totals.monthly).toBe('22.94');
      } finally {
        await usd.close();
      }
    });

    it('uses an older rate when the day has none and says it is stale, with the date used', async () => {
      h.clock.now = new Date('2024-03-16T12:00:00Z');
      await add({
        name: 'Hulu',
        amount: '10.00',
        currency: 'USD',
        first_charge_date: '2024-03-01',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {});
      expect(output.totals.monthly).toBe('9.14');
      expect(output.conversion.rates).toEqual([
        { currency: 'USD', rate: '0.91416', date: '2024-03-13', source: 'ecb', stale: true },
      ]);
    });

    it('marks the total partial and lists what it left out when a currency has no rate at all', async () => {
      await add({ name: 'Netflix', amount: '15.99', first_charge_date: '2024-03-01' });
      const flow = await add({
        name: 'Flow',
        amount: '5000.00',
        currency: 'ARS',
        first_charge_date: '2024-03-01',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {});
      expect(output.totals.monthly).toBe('15.99');
      // Netflix is in the figures; Flow is running too, but in none of them.
      expect(output.subscription_count).toBe(1);
      expect(output.left_out_count).toBe(1);
      expect(output.conversion).toEqual({
        rates: [],
        partial: true,
        left_out: [{ subscription_id: flow, amount: '5000.00', currency: 'ARS' }],
      });
    });

    it("lets the owner's manual rate win over the ECB's", async () => {
      await add({
        name: 'Hulu',
        amount: '10.00',
        currency: 'USD',
        first_charge_date: '2024-03-01',
      });
      await h.core.invoke('set_exchange_rate', h.owner, {
        currency: 'USD',
        rate: '1.25',
        date: '2024-03-01',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {});
      expect(output.totals.monthly).toBe('8.00');
      expect(output.conversion.rates).toEqual([
        { currency: 'USD', rate: '0.8', date: '2024-03-01', source: 'manual', stale: true },
      ]);
    });
  });

  describe('a period', () => {
    it('sums recorded paid amounts and expected charges, leaving skipped ones out', async () => {
      const netflix = await add({ name: 'Netflix', amount: '15.99', category: 'Streaming' });
      await add({
        name: 'Spotify',
        amount: '10.99',
        first_charge_date: '2026-02-10',
        member_id: luis.memberId,
      });
      await h.core.invoke('mark_charge_paid', h.owner, {
        subscription_id: netflix,
        due_date: '2026-01-05',
        amount: '17.49',
      });
      await h.core.invoke('skip_charge', h.owner, {
        subscription_id: netflix,
        due_date: '2026-02-05',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {
        from: '2026-01-01',
        to: '2026-03-31',
        group_by: 'category',
      });
      expect(output).toMatchObject({
        basis: 'period',
        from: '2026-01-01',
        to: '2026-03-31',
        subscription_count: 2,
      });
      // Netflix: 17.49 paid (Jan) + 15.99 expected (Mar); Spotify: 10.99 expected in Feb and Mar.
      expect(output.totals).toEqual({ total: '55.46', paid: '17.49', expected: '37.97' });
      expect(output.groups.map((g) => [g.name, g.total, g.paid, g.expected])).toEqual([
        ['Streaming', '33.48', '17.49', '15.99'],
        ['No category', '21.98', '0.00', '21.98'],
      ]);
      expect(output.members.map((m) => [m.name, m.total])).toEqual([
        ['Ana', '33.48'],
        ['Luis', '21.98'],
      ]);
    });

    it('converts each charge at the rate of its own date, stale between publications and left out before any', async () => {
      await loadEcbFixtures(h.db);
      h.clock.now = new Date('2024-07-01T12:00:00Z');
      const hulu = await add({
        name: 'Hulu',
        amount: '10.00',
        currency: 'USD',
        first_charge_date: '2024-02-28',
      });
      const { output } = await h.core.invoke('get_totals', h.owner, {
        from: '2024-02-01',
        to: '2024-06-30',
      });
      // 03-28, 04-28 and 05-28 at the rate of 03-13 (9.14 each); 06-28 at its own rate (10 / 1.0705 = 9.34).
      expect(output.totals).toEqual({ total: '36.76', paid: '0.00', expected: '36.76' });
      // Hulu is in the figures (four of its charges converted), so it is not counted as left out.
      expect(output).toMatchObject({ subscription_count: 1, left_out_count: 0 });
      expect(output.conversion).toEqual({
        rates: [
          { currency: 'USD', rate: '0.91416', date: '2024-03-13', source: 'ecb', stale: true },
          { currency: 'USD', rate: '0.934143', date: '2024-06-28', source: 'ecb', stale: false },
        ],
        partial: true,
        left_out: [{ subscription_id: hulu, amount: '10.00', currency: 'USD' }],
      });
    });

    it('counts a subscription none of whose charges had a rate as left out of the period', async () => {
      await add({ name: 'Netflix', amount: '15.99', first_charge_date: '2026-01-05' });
      const flow = await add({ name: 'Flow', amount: '5000.00', currency: 'ARS' });
      const { output } = await h.core.invoke('get_totals', h.owner, {
        from: '2026-01-01',
        to: '2026-02-28',
      });
      expect(output).toMatchObject({ subscription_count: 1, left_out_count: 1 });
      expect(output.totals.total).toBe('31.98');
      expect(output.conversion.left_out).toEqual([
        { subscription_id: flow, amount: '10000.00', currency: 'ARS' },
      ]);
    });

    it('refuses half a range, a reversed one and one longer than three years', async () => {
      const half = await h.core
        .invoke('get_totals', h.owner, { from: '2026-01-01' })
        .catch((e: unknown) => e);
      expect(half).toBeInstanceOf(OpError);
      expect((half as OpError).render('en')).toContain('Give both from and to');
      const reversed = await h.core
        .invoke('get_totals', h.owner, { from: '2026-03-01', to: '2026-01-01' })
        .catch((e: unknown) => e);
      expect((reversed as OpError).code).toBe('invalid_input');
      const long = await h.core
        .invoke('get_totals', h.owner, { from: '2020-01-01', to: '2026-01-01' })
        .catch((e: unknown) => e);
      expect((long as OpError).render('en')).toContain('1100 days');
    });
  });
});
