import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { addDays } from '../../../../core/domain/dates.ts';
import { syntheticSubscription } from '../../../helpers/synthetic.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

const SUBSCRIPTIONS = 10_000;
const CHARGES = 200_000;

describe('get_totals on a large household', () => {
  let h: TestHousehold;
  let expectedMonthlyEur = 0;
  beforeAll(async () => {
    h = await createTestHousehold();
    await loadEcbFixtures(h.db);
    const luis = await h.addMember('Luis');
    const now = '2026-03-01T00:00:00.000Z';
    const categories = Array.from({ length: 12 }, (_, i) => ({
      id: `cat_p${i}`,
      household_id: h.householdId,
      name: `Category ${i}`,
      color: null,
      created_at: now,
    }));
    const tags = Array.from({ length: 8 }, (_, i) => ({
      id: `tag_p${i}`,
      household_id: h.householdId,
      name: `tag ${i}`,
      created_at: now,
    }));
    const subs = Array.from({ length: SUBSCRIPTIONS }, (_, i) =>
      syntheticSubscription(i, {
        householdId: h.householdId,
        memberId: (n) => (n % 3 === 0 ? (luis.memberId ?? '') : h.ownerId),
        now,
        idPrefix: 'sub_p',
        categoryId: (n) => `cat_p${n % 12}`,
      }),
    );
    for (const s of subs) {
      if (s.status === 'active' && s.currency === 'EUR')
        expectedMonthlyEur +=
          s.cycle_unit === 'year' ? (s.amount_minor * 30.436875) / 365.2425 : s.amount_minor;
    }
    const links = subs
      .filter((_, i) => i % 2 === 0)
      .map((s, i) => ({
        id: `${s.id}:tag_p${i % 8}`,
        household_id: h.householdId,
        subscription_id: s.id,
        tag_id: `tag_p${i % 8}`,
      }));
    const shares = subs
      .filter((_, i) => i % 4 === 0)
      .flatMap((s) => [
        {
          id: `${s.id}:${h.ownerId}`,
          household_id: h.householdId,
          subscription_id: s.id,
          member_id: h.ownerId,
          share_bp: 5000,
        },
        {
          id: `${s.id}:${luis.memberId}`,
          household_id: h.householdId,
          subscription_id: s.id,
          member_id: luis.memberId ?? '',
          share_bp: 5000,
        },
      ]);
    const charges = Array.from({ length: CHARGES }, (_, i) => {
      const sub = subs[i % SUBSCRIPTIONS];
      const k = Math.floor(i / SUBSCRIPTIONS);
      return {
        id: `chg_p${i}`,
        household_id: h.householdId,
        subscription_id: sub?.id ?? '',
        due_date: addDays(sub?.first_charge_date ?? '2020-01-01', 30 * k),
        status: k % 9 === 8 ? 'skipped' : 'paid',
        amount_minor: sub?.amount_minor ?? 0,
        currency: sub?.currency ?? 'EUR',
        note: null,
        recorded_at: now,
      };
    });
    await h.db.knex.batchInsert('categories', categories, 100);
    await h.db.knex.batchInsert('tags', tags, 100);
    await h.db.knex.batchInsert('subscriptions', subs, 200);
    await h.db.knex.batchInsert('subscription_tags', links, 500);
    await h.db.knex.batchInsert('subscription_shares', shares, 500);
    await h.db.knex.batchInsert('charges', charges, 500);
  }, 120_000);
  afterAll(async () => h.close());

  // Speed is measured by `npm run bench`, not asserted here: this checks the set-based totals are right at scale.
  it('totals the cost now of 10,000 subscriptions with 200,000 charges recorded', async () => {
    const { output } = await h.core.invoke('get_totals', h.owner, {});
    expect(output.subscription_count).toBe(SUBSCRIPTIONS - Math.ceil(SUBSCRIPTIONS / 11));
    expect(output.conversion.rates.map((r) => [r.currency, r.date, r.stale])).toEqual([
      ['GBP', '2024-06-28', true],
      ['USD', '2024-06-28', true],
    ]);
    expect(Number(output.totals.monthly)).toBeGreaterThan(expectedMonthlyEur / 100);
  });

  it('groups by tag and by member, with shares', async () => {
    const byTag = await h.core.invoke('get_totals', h.owner, { group_by: 'tag' });
    expect(byTag.output.groups).toHaveLength(9);
    expect(byTag.output.members).toHaveLength(2);
    const byMember = await h.core.invoke('get_totals', h.owner, { group_by: 'member' });
    expect(byMember.output.groups).toHaveLength(2);
  });
});
