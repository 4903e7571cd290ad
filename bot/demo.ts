import type { AppCore } from './runtime.ts';
import { addDays, addMonths, localDate, memberActor, newcomerActor } from '../core/index.ts';

interface DemoSubscription {
  name: string;
  amount: string;
  currency?: string;
  cycle?: { unit: 'day' | 'week' | 'month' | 'year'; every: number };
  /** Months before today of the first charge (its day of month follows). */
  startedMonthsAgo: number;
  day: number;
  category: string;
  payment_method: string;
  tags?: string[];
  owner?: 'ben';
  private?: boolean;
  url?: string;
  cancel_url?: string;
}

const SUBSCRIPTIONS: DemoSubscription[] = [
  {
    name: 'Netflix',
    amount: '13.99',
    startedMonthsAgo: 30,
    day: 5,
    category: 'Streaming',
    payment_method: 'Visa ·4242',
    tags: ['family'],
    url: 'https://www.netflix.com',
    cancel_url: 'https://www.netflix.com/cancelplan',
  },
  {
    name: 'Spotify Family',
    amount: '17.99',
    startedMonthsAgo: 40,
    day: 12,
    category: 'Music',
    payment_method: 'Visa ·4242',
    tags: ['family'],
  },
  {
    name: 'Disney+',
    amount: '8.99',
    startedMonthsAgo: 8,
    day: 21,
    category: 'Streaming',
    payment_method: 'PayPal',
    tags: ['kids'],
  },
  {
    name: 'iCloud+ 200 GB',
    amount: '2.99',
    startedMonthsAgo: 24,
    day: 2,
    category: 'Cloud & software',
    payment_method: 'Apple ID',
  },
  {
    name: 'Google One',
    amount: '1.99',
    startedMonthsAgo: 14,
    day: 17,
    category: 'Cloud & software',
    payment_method: 'Mastercard ·5100',
    owner: 'ben',
  },
  {
    name: 'Microsoft 365 Family',
    amount: '99.00',
    cycle: { unit: 'year', every: 1 },
    startedMonthsAgo: 22,
    day: 9,
    category: 'Cloud & software',
    payment_method: 'Visa ·4242',
  },
  {
    name: 'Amazon Prime',
    amount: '49.90',
    cycle: { unit: 'year', every: 1 },
    startedMonthsAgo: 10,
    day: 28,
    category: 'Shopping',
    payment_method: 'Mastercard ·5100',
  },
  {
    name: 'Gym membership',
    amount: '39.90',
    startedMonthsAgo: 6,
    day: 1,
    category: 'Health',
    payment_method: 'Bank transfer',
    owner: 'ben',
    private: true,
  },
  {
    name: 'Mobile plan',
    amount: '25.00',
    startedMonthsAgo: 18,
    day: 3,
    category: 'Utilities',
    payment_method: 'Bank transfer',
  },
  {
    name: 'Home internet',
    amount: '45.00',
    startedMonthsAgo: 36,
    day: 15,
    category: 'Utilities',
    payment_method: 'Bank transfer',
  },
  {
    name: 'The Guardian',
    amount: '12.00',
    startedMonthsAgo: 4,
    day: 19,
    category: 'News',
    payment_method: 'Visa ·4242',
  },
  {
    name: 'ChatGPT Plus',
    amount: '20.00',
    currency: 'USD',
    startedMonthsAgo: 5,
    day: 26,
    category: 'Cloud & software',
    payment_method: 'Mastercard ·5100',
    tags: ['work'],
  },
  {
    name: 'GitHub Copilot',
    amount: '100.00',
    currency: 'USD',
    cycle: { unit: 'year', every: 1 },
    startedMonthsAgo: 9,
    day: 11,
    category: 'Cloud & software',
    payment_method: 'Mastercard ·5100',
    tags: ['work'],
  },
  {
    name: 'Duolingo Super',
    amount: '6.99',
    startedMonthsAgo: 3,
    day: 7,
    category: 'Education',
    payment_method: 'Apple ID',
    owner: 'ben',
  },
  {
    name: 'Dog food delivery',
    amount: '32.50',
    cycle: { unit: 'week', every: 4 },
    startedMonthsAgo: 7,
    day: 4,
    category: 'Shopping',
    payment_method: 'PayPal',
  },
];

/** The demo household's name: `exhale demo` loads it once per database. */
export const DEMO_NAME = 'Demo home';

/**
 * A realistic demo household built only through ops, so it is audited and undoable like real use:
 * two members, fifteen subscriptions in EUR and USD, a price rise, a trial, a paused plan, a
 * cancelled one and a few recorded charges. Every change is made through the channel `demo`, so
 * Activity says it was the demo's, and "undo my last change" (undo without ids) never takes back
 * history the person at the keyboard did not make; an explicit Undo of one entry still works.
 */
export async function loadDemoHousehold(
  core: AppCore,
): Promise<{ householdId: string; name: string; subscriptions: number; members: number }> {
  const { output } = await core.invoke('create_household', newcomerActor('demo', 'en'), {
    name: DEMO_NAME,
    currency: 'EUR',
    time_zone: 'Europe/Madrid',
    language: 'en',
    owner_name: 'Ana',
  });
  const householdId = output.household.id;
  const ana = memberActor({ ...output.member, household_id: householdId }, 'demo');
  const invite = await core.invoke('create_invite', ana, {});
  const joined = await core.invoke('join_household', newcomerActor('demo', 'es'), {
    code: invite.output.code,
    name: 'Ben',
    language: 'es',
  });
  const ben = memberActor({ ...joined.output.member, household_id: householdId }, 'demo');

  const today = localDate(core.clock(), 'Europe/Madrid');
  const ids = new Map<string, string>();
  for (const sub of SUBSCRIPTIONS) {
    const anchor = addMonths(today, -sub.startedMonthsAgo, sub.day);
    const created = await core.invoke('create_subscription', sub.owner === 'ben' ? ben : ana, {
      name: sub.name,
      amount: sub.amount,
      currency: sub.currency,
      cycle: sub.cycle,
      first_charge_date: anchor,
      category: sub.category,
      payment_method: sub.payment_method,
      tags: sub.tags,
      private: sub.private,
      url: sub.url,
      cancel_url: sub.cancel_url,
    });
    ids.set(sub.name, created.output.id);
  }
  const id = (name: string): string => ids.get(name) ?? '';

  // The owner's own rate for the demo's USD plans (the ECB's of 2024-06-28), so totals are complete
  // offline: from a year ago for the past year's charges, and again from today, so the figures of
  // today are not said to use an old rate the moment the demo opens.
  for (const from of [addMonths(today, -12), today])
    await core.invoke('set_exchange_rate', ana, { currency: 'USD', rate: '1.0705', date: from });
  await core.invoke('update_subscription', ana, {
    id: id('Netflix'),
    amount: '15.99',
    price_effective_date: addMonths(today, -2, 5),
  });
  await core.invoke('update_subscription', ana, {
    id: id('Spotify Family'),
    shares: [
      { member_id: ana.memberId, percent: '50' },
      { member_id: ben.memberId, percent: '50' },
    ],
  });
  await core.invoke('create_subscription', ana, {
    name: 'Max',
    amount: '9.99',
    status: 'trial',
    first_charge_date: addDays(today, 5),
    trial_ends_on: addDays(today, 5),
    category: 'Streaming',
    payment_method: 'Visa ·4242',
    notes: 'Free week for the new series; cancel if we stop watching.',
  });
  await core.invoke('pause_subscription', ana, { id: id('The Guardian') });
  await core.invoke('cancel_subscription', ben, { id: id('Duolingo Super') });
  for (const name of ['Netflix', 'Spotify Family', 'Home internet']) {
    const charges = await core.invoke('list_charges', ana, {
      from: addMonths(today, -2),
      to: today,
      subscription_id: id(name),
    });
    for (const charge of charges.output.items)
      await core.invoke('mark_charge_paid', ana, {
        subscription_id: id(name),
        due_date: charge.due_date,
      });
  }
  await core.invoke('mark_charge_paid', ana, {
    subscription_id: id('Mobile plan'),
    due_date: addMonths(today, -1, 3),
    amount: '31.40',
  });
  return { householdId, name: 'Demo home', subscriptions: SUBSCRIPTIONS.length + 1, members: 2 };
}
