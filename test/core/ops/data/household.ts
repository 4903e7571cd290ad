import type { Actor } from '../../../../core/kernel/actor.ts';
import type { TestHousehold } from '../../../helpers/testCore.ts';

export interface RichHousehold {
  luis: Actor;
  netflix: string;
  diary: string;
  gym: string;
}

/**
 * Fills a test household with something of everything an export carries: categories with a
 * colour, a card, tags, shares, paid and skipped charges, a price change, a trial, a contract,
 * a cancelled subscription, private ones of both members, and manual and ECB exchange rates.
 */
export async function fillHousehold(h: TestHousehold): Promise<RichHousehold> {
  const ana = h.owner;
  const luis = await h.addMember('Luis', 'es');
  const netflix = await h.core.invoke('create_subscription', ana, {
    name: 'Netflix',
    amount: '15.99',
    first_charge_date: '2025-01-05',
    category: 'Streaming',
    payment_method: 'Joint Visa',
    tags: ['family', 'kids'],
    notes: 'Premium, "4K", 4 screens',
    url: 'https://www.netflix.com',
    shares: [
      { member_id: h.ownerId, percent: '50' },
      { member_id: luis.memberId ?? '', percent: '50' },
    ],
  });
  const id = netflix.output.id;
  await h.core.invoke('mark_charge_paid', ana, { subscription_id: id, due_date: '2026-01-05' });
  await h.core.invoke('update_subscription', ana, { id, amount: '17.99', price_effective_date: '2026-02-01' });
  await h.core.invoke('mark_charge_paid', ana, { subscription_id: id, due_date: '2026-02-05', amount: '17.99' });

  const spotify = await h.core.invoke('create_subscription', ana, { name: 'Spotify', amount: '10.99', first_charge_date: '2025-06-12', category: 'Music', tags: ['family'] });
  await h.core.invoke('skip_charge', ana, { subscription_id: spotify.output.id, due_date: '2026-02-12' });
  await h.core.invoke('create_subscription', ana, {
    name: 'The Economist',
    vendor: 'The Economist Group',
    amount: '59',
    cycle: { unit: 'month', every: 3 },
    first_charge_date: '2025-10-01',
    contract_ends_on: '2026-09-30',
    notice_days: 30,
    cancel_url: 'https://www.economist.com/cancel',
    notes: '=HYPERLINK("x")\nsecond line',
  });
  await h.core.invoke('create_subscription', ana, { name: 'Max', amount: '9.99', status: 'trial', trial_ends_on: '2026-03-09', first_charge_date: '2026-03-09' });
  const disney = await h.core.invoke('create_subscription', ana, { name: 'Disney+', amount: '8.99', first_charge_date: '2025-05-20', category: 'streaming' });
  await h.core.invoke('cancel_subscription', ana, { id: disney.output.id, effective_date: '2026-01-20' });
  const diary = await h.core.invoke('create_subscription', ana, {
    name: 'Diary app',
    amount: '4.99',
    currency: 'USD',
    cycle: { unit: 'year', every: 1 },
    first_charge_date: '2025-04-10',
    private: true,
    notes: 'Just mine',
  });
  await h.core.invoke('skip_charge', ana, { subscription_id: diary.output.id, due_date: '2025-04-10' });

  const gym = await h.core.invoke('create_subscription', luis, { name: 'Gym', amount: '39.90', first_charge_date: '2025-09-01', private: true });
  await h.core.invoke('mark_charge_paid', luis, { subscription_id: gym.output.id, due_date: '2026-02-01' });
  await h.core.invoke('create_subscription', luis, { name: 'Chess.com, Diamond', amount: '5', first_charge_date: '2025-11-11', category: 'Games' });

  // What ops elsewhere set (colours, card details, rates, a chat id) is written directly here.
  await h.db.knex('categories').where({ household_id: h.householdId, name: 'Streaming' }).update({ color: '#E50914' });
  await h.db.knex('payment_methods').where({ household_id: h.householdId, name: 'Joint Visa' }).update({ kind: 'card', last4: '4242' });
  await h.db.knex('categories').insert({ id: 'cat_sport', household_id: h.householdId, name: 'Sport', color: '#00AA55', created_at: '2026-01-01T00:00:00.000Z' });
  await h.db.knex('fx_rates').insert([
    { id: 'fx_manual_usd', household_id: h.householdId, date: '2026-02-01', currency: 'USD', per_eur: 1.0823, source: 'manual' },
    { id: 'fx_ecb_gbp', household_id: '', date: '2026-02-27', currency: 'GBP', per_eur: 0.8412, source: 'ecb' },
  ]);
  await h.db.knex('member_identities').insert([
    { id: 'telegram:987654321', member_id: h.ownerId, platform: 'telegram', external_id: '987654321', position: 0, created_at: '2026-01-01T00:00:00.000Z' },
    { id: 'slack:U0SECRET', member_id: h.ownerId, platform: 'slack', external_id: 'U0SECRET', position: 1, created_at: '2026-01-01T00:00:00.000Z' },
  ]);
  return { luis, netflix: id, diary: diary.output.id, gym: gym.output.id };
}
