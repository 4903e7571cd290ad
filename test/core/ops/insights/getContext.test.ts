import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('get_context', () => {
  let h: TestHousehold;
  let luis: Actor;
  const ids: Record<string, string> = {};
  beforeEach(async () => {
    h = await createTestHousehold();
    luis = await h.addMember('Luis', 'es');
    const add = async (input: Record<string, unknown>, actor: Actor = h.owner): Promise<string> =>
      (await h.core.invoke('create_subscription', actor, input)).output.id;
    ids.netflix = await add({ name: 'Netflix', amount: '15.99', first_charge_date: '2026-01-05' });
    ids.max = await add({
      name: 'Max',
      amount: '9.99',
      status: 'trial',
      trial_ends_on: '2026-03-06',
      first_charge_date: '2026-03-06',
    });
    ids.icloud = await add({
      name: 'iCloud',
      amount: '29.99',
      cycle: { unit: 'year', every: 1 },
      first_charge_date: '2025-11-20',
    });
    ids.secret = await add(
      { name: 'Secret', amount: '50.00', private: true, first_charge_date: '2026-02-03' },
      luis,
    );
    const paused = await add({ name: 'Paused', amount: '8.00', first_charge_date: '2026-01-10' });
    await h.core.invoke('pause_subscription', h.owner, { id: paused });
  });
  afterEach(async () => h.close());

  it('briefs on the household, members, running subscriptions, totals, the next 14 days and what needs attention', async () => {
    const { output } = await h.core.invoke('get_context', h.owner, {});
    expect(output.household).toEqual({
      name: 'Test home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      today: '2026-03-02',
      language: 'en',
    });
    expect(output.you).toEqual({ member_id: h.ownerId, name: 'Ana', role: 'owner' });
    expect(output.members.map((m) => [m.name, m.role])).toEqual([
      ['Ana', 'owner'],
      ['Luis', 'member'],
    ]);
    expect(output.subscriptions).toEqual({
      count: 3,
      listed: 3,
      items: [
        {
          id: ids.netflix,
          name: 'Netflix',
          amount: '15.99',
          currency: 'EUR',
          cycle: '1 month',
          next: '2026-03-05',
          status: 'active',
        },
        {
          id: ids.max,
          name: 'Max',
          amount: '9.99',
          currency: 'EUR',
          cycle: '1 month',
          next: '2026-03-06',
          status: 'trial',
        },
        {
          id: ids.icloud,
          name: 'iCloud',
          amount: '29.99',
          currency: 'EUR',
          cycle: '1 year',
          next: '2026-11-20',
          status: 'active',
        },
      ],
    });
    expect(output.totals).toEqual({ monthly: '28.48', yearly: '341.75' });
    expect(output.upcoming).toMatchObject({ to: '2026-03-16', total: '25.98', count: 3 });
    expect(output.upcoming.items.map((u) => [u.date, u.kind, u.name, u.converted])).toEqual([
      ['2026-03-05', 'charge', 'Netflix', '15.99'],
      ['2026-03-06', 'trial_end', 'Max', '9.99'],
      ['2026-03-06', 'charge', 'Max', '9.99'],
    ]);
    expect(output.attention).toEqual({
      count: 1,
      items: [
        {
          kind: 'trial_converting',
          ids: [ids.max],
          note: 'The Max trial ends on Fri, 6 Mar 2026; after that it costs about 119.88 EUR a year.',
          saving: '119.88',
          // What the note says, as data, for a screen that writes it in its reader's formats.
          facts: {
            names: ['Max'],
            date: '2026-03-06',
            currency: 'EUR',
            old_amount: null,
            new_amount: null,
            yearly: '119.88',
            percent: null,
          },
        },
      ],
    });
    expect(output.conversion).toEqual({ rates: [], partial: false, left_out: [] });
    expect(output.guide.dates).toContain('Europe/Madrid');
    expect(output.guide.dates).toContain('2026-03-02');
    expect(Object.keys(output.guide.glossary)).toEqual([
      'trial',
      'paused',
      'cancelled',
      'share',
      'notice',
      'price_change',
      'rate',
    ]);
  });

  it("gives each finding's facts as data: names, dates, amounts in their currency, the rise in percent", async () => {
    await h.core.invoke('update_subscription', h.owner, {
      id: ids.netflix ?? '',
      amount: '17.99',
      price_effective_date: '2025-12-01',
    });
    const twin = (
      await h.core.invoke('create_subscription', h.owner, { name: 'netflix', amount: '5.00' })
    ).output.id;
    const { output } = await h.core.invoke('get_context', h.owner, {});
    const rise = output.attention.items.find((i) => i.kind === 'price_increase');
    expect(rise?.facts).toEqual({
      names: ['Netflix'],
      date: '2025-12-01',
      currency: 'EUR',
      old_amount: '15.99',
      new_amount: '17.99',
      yearly: '24.00',
      percent: '12.5',
    });
    // The names in the note's order.
    const duplicate = output.attention.items.find((i) => i.kind === 'duplicate');
    expect([...(duplicate?.facts.names ?? [])].sort()).toEqual(['Netflix', 'netflix']);
    expect(duplicate?.note).toContain(duplicate?.facts.names.join(', '));
    expect(duplicate?.facts).toMatchObject({ currency: null, yearly: null, date: null });
    expect(duplicate?.ids).toContain(twin);
  });

  it('stays compact: a small household fits in a few kilobytes of JSON', async () => {
    const { output } = await h.core.invoke('get_context', h.owner, {});
    expect(JSON.stringify(output).length).toBeLessThan(4500);
  });

  it("speaks the caller's language and shows them their own private subscriptions", async () => {
    const { output } = await h.core.invoke('get_context', luis, {});
    expect(output.household.language).toBe('es');
    expect(output.you).toMatchObject({ name: 'Luis', role: 'member' });
    expect(output.subscriptions.items.map((s) => s.name)).toContain('Secret');
    expect(output.attention.items[0]?.note).toBe(
      'La prueba de Max termina el vie, 6 mar 2026; después cuesta unos 119,88 EUR al año.',
    );
    expect(output.guide.glossary.trial).toContain('periodo gratuito');
  });

  it('lists at most 100 subscriptions and 30 upcoming items, the soonest first, while counting them all', async () => {
    for (let i = 0; i < 105; i += 1) {
      await h.db.knex('subscriptions').insert({
        id: `bulk_${String(i).padStart(3, '0')}`,
        household_id: h.householdId,
        member_id: h.ownerId,
        name: `Bulk ${i}`,
        vendor: null,
        amount_minor: 100,
        currency: 'EUR',
        cycle_unit: 'month',
        cycle_every: 1,
        first_charge_date: '2026-02-10',
        status: 'active',
        trial_ends_on: null,
        paused_on: null,
        cancelled_on: null,
        contract_ends_on: null,
        notice_days: null,
        category_id: null,
        payment_method_id: null,
        notes: null,
        url: null,
        cancel_url: null,
        private: 0,
        created_at: '2026-03-01T00:00:00.000Z',
        updated_at: '2026-03-01T00:00:00.000Z',
      });
    }
    const { output } = await h.core.invoke('get_context', h.owner, {});
    expect(output.subscriptions.count).toBe(108);
    expect(output.subscriptions.listed).toBe(100);
    expect(output.subscriptions.items[0]?.name).toBe('Netflix');
    expect(output.subscriptions.items.map((s) => s.name)).not.toContain('iCloud');
    // 105 charges on 2026-03-10 after Netflix's charge and Max's trial end and first charge.
    expect(output.upcoming.count).toBe(108);
    expect(output.upcoming.items).toHaveLength(30);
    expect(output.upcoming.items[0]?.name).toBe('Netflix');
    expect(output.upcoming.total).toBe('130.98');
  });

  it('lists the soonest first, the same day by name, each reader their own (from the read model)', async () => {
    for (const name of ['zeta', 'Alpha'])
      await h.core.invoke('create_subscription', h.owner, {
        name,
        amount: '1.00',
        first_charge_date: '2026-01-05',
      });
    const listed = async (actor: Actor) =>
      (await h.core.invoke('get_context', actor, {})).output.subscriptions.items.map(
        (s) => `${s.next ?? '-'} ${s.name}`,
      );
    const ana = [
      '2026-03-05 Alpha',
      '2026-03-05 Netflix',
      '2026-03-05 zeta',
      '2026-03-06 Max',
      '2026-11-20 iCloud',
    ];
    expect(await listed(h.owner)).toEqual(ana);
    expect(await listed(luis)).toEqual(['2026-03-03 Secret', ...ana]);
    expect(await listed({ ...luis, audience: 'shared' })).toEqual(ana);
  });
});
