import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { viewsByIds } from '../../../../core/store/repos/subscriptions.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/** Counts the SQL statements `work` sends through the household's database. */
async function statements(h: TestHousehold, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listener = (q: { sql: string }) => seen.push(q.sql);
  h.db.knex.on('query', listener);
  try {
    await work();
  } finally {
    h.db.knex.off('query', listener);
  }
  return seen;
}

describe('subscription views (core/store/repos/subscriptions.ts)', () => {
  let h: TestHousehold;
  let id = '';
  let memberId = '';
  beforeEach(async () => {
    h = await createTestHousehold();
    const bea = await h.addMember('Bea');
    memberId = bea.memberId ?? '';
    const created = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '10.00',
      first_charge_date: '2026-01-10',
      category: 'Streaming',
      payment_method: 'Visa',
      tags: ['work', 'family'],
      shares: [
        { member_id: h.ownerId, percent: '60' },
        { member_id: memberId, percent: '40' },
      ],
    });
    id = created.output.id;
    // A price rise announced for next month: today's price is still the old one.
    await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '12.00',
      price_effective_date: '2026-04-10',
    });
  });
  afterEach(async () => h.close());

  it('reads a view, with its names, tags, shares and today’s price, in one statement', async () => {
    let views: Awaited<ReturnType<typeof viewsByIds>> = [];
    const sql = await statements(h, async () => {
      views = await viewsByIds(h.db.knex, h.owner, h.householdId, [id], '2026-03-02');
    });
    expect(sql).toHaveLength(1);
    const [view] = views;
    expect(view?.amount).toBe('10.00');
    expect(view?.monthly_cost).toBe('10.00');
    expect(view?.category?.name).toBe('Streaming');
    expect(view?.payment_method?.name).toBe('Visa');
    expect(view?.tags.map((t) => t.name)).toEqual(['family', 'work']);
    expect(view?.shares).toEqual(
      [
        { member_id: h.ownerId, percent: '60.00' },
        { member_id: memberId, percent: '40.00' },
      ].sort((a, b) => (a.member_id < b.member_id ? -1 : 1)),
    );
    // After the rise takes effect, the same statement reads the new price.
    const [later] = await viewsByIds(h.db.knex, h.owner, h.householdId, [id], '2026-04-10');
    expect(later?.amount).toBe('12.00');
  });

  it('answers get_subscription with the same view, its own read being that one statement', async () => {
    const sql = await statements(h, () => h.core.invoke('get_subscription', h.owner, { id }));
    expect(sql.filter((s) => /from [`"]subscriptions[`"]/.test(s))).toHaveLength(1);
    const { output } = await h.core.invoke('get_subscription', h.owner, { id });
    expect(output.tags.map((t) => t.name)).toEqual(['family', 'work']);
    expect(output.amount).toBe('10.00');
  });

  it('reads a page of list_subscriptions in one statement, in the page’s order, with no tags or shares as empty lists', async () => {
    for (const name of ['Apple TV', 'Zattoo'])
      await h.core.invoke('create_subscription', h.owner, {
        name,
        amount: '5',
        first_charge_date: '2026-01-01',
      });
    const sql = await statements(h, () =>
      h.core.invoke('list_subscriptions', h.owner, { sort: 'name' }),
    );
    expect(sql.filter((s) => /from [`"]subscriptions[`"]/.test(s))).toHaveLength(2); // sort keys, page
    const { output } = await h.core.invoke('list_subscriptions', h.owner, { sort: 'name' });
    expect(output.items.map((s) => s.name)).toEqual(['Apple TV', 'Netflix', 'Zattoo']);
    expect(output.items[0]).toMatchObject({ tags: [], shares: [], category: null });
    const byCreation = await h.core.invoke('list_subscriptions', h.owner, { sort: 'created_at' });
    expect(byCreation.output.items.map((s) => s.name)).toEqual(['Netflix', 'Apple TV', 'Zattoo']);
    expect(byCreation.output.items[0]?.tags.map((t) => t.name)).toEqual(['family', 'work']);
  });

  it('keeps another member’s private subscription out of a view by id', async () => {
    const bea = await h.addMember('Cleo');
    const secret = await h.core.invoke('create_subscription', bea, {
      name: 'Diary',
      amount: '3',
      first_charge_date: '2026-01-01',
      private: true,
    });
    expect(
      await viewsByIds(h.db.knex, h.owner, h.householdId, [secret.output.id], '2026-03-02'),
    ).toEqual([]);
    await expect(
      h.core.invoke('get_subscription', h.owner, { id: secret.output.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
