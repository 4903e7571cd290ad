import { afterEach, describe, expect, it } from 'vitest';

import { findDueReminders } from '../../../core/reminders/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

const at = (iso: string): Date => new Date(iso);

describe('findDueReminders', () => {
  let h: TestHousehold;
  afterEach(async () => h.close());

  async function due(iso: string) {
    return (await findDueReminders(h.db, at(iso))).map((d) => ({
      kind: d.reminder.kind,
      name: d.reminder.subscriptionName,
      event: d.reminder.eventDate,
      offset: d.reminder.offsetDays,
      member: d.reminder.memberId,
      supersedes: d.supersedes.map((s) => s.offsetDays),
    }));
  }

  it("is due at the member's reminder time in the household's time zone, across a DST change", async () => {
    // America/New_York: EST (UTC-5) until 2026-03-08 07:00 UTC, then EDT (UTC-4).
    h = await createTestHousehold({ timeZone: 'America/New_York', currency: 'USD' });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Hulu',
      amount: '7.99',
      first_charge_date: '2026-03-09',
    });
    expect(await due('2026-03-06T13:59:00Z')).toEqual([]); // 08:59 EST, 3 days before
    expect(await due('2026-03-06T14:00:00Z')).toEqual([
      {
        kind: 'charge',
        name: 'Hulu',
        event: '2026-03-09',
        offset: 3,
        member: h.ownerId,
        supersedes: [],
      },
    ]);
    // 1 day before is 2026-03-08, after the change: 09:00 EDT is 13:00 UTC.
    expect((await due('2026-03-08T12:59:00Z')).map((d) => d.offset)).toEqual([3]);
    expect(await due('2026-03-08T13:00:00Z')).toEqual([
      {
        kind: 'charge',
        name: 'Hulu',
        event: '2026-03-09',
        offset: 1,
        member: h.ownerId,
        supersedes: [3],
      },
    ]);
  });

  it("follows each member's days and time, and sends none to a member who turned reminders off", async () => {
    h = await createTestHousehold();
    const luis = await h.addMember('Luis');
    await h.core.invoke('update_member', h.owner, {
      id: h.ownerId,
      reminder_offsets: [7],
      reminder_time: '20:30',
    });
    await h.core.invoke('update_member', luis, { id: luis.memberId!, reminder_offsets: [] });
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-12',
    });
    await h.core.invoke('update_subscription', h.owner, {
      id: (sub.output as { id: string }).id,
      shares: [
        { member_id: h.ownerId, percent: '50' },
        { member_id: luis.memberId!, percent: '50' },
      ],
    });
    expect(await due('2026-03-05T19:29:00Z')).toEqual([]); // 20:29 CET
    expect((await due('2026-03-05T19:30:00Z')).map((d) => [d.member, d.offset])).toEqual([
      [h.ownerId, 7],
    ]);
  });

  it('reminds everyone who shares a subscription, but a private one only its member', async () => {
    h = await createTestHousehold();
    const luis = await h.addMember('Luis');
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-04',
      shares: [
        { member_id: h.ownerId, percent: '50' },
        { member_id: luis.memberId!, percent: '50' },
      ],
    });
    await h.core.invoke('create_subscription', luis, {
      name: 'Diary',
      amount: '3',
      first_charge_date: '2026-03-04',
      private: true,
    });
    const reminders = await due('2026-03-03T08:00:00Z');
    expect(reminders.map((d) => [d.name, d.member === h.ownerId ? 'Ana' : 'Luis']).sort()).toEqual([
      ['Diary', 'Luis'],
      ['Netflix', 'Ana'],
      ['Netflix', 'Luis'],
    ]);
  });

  it('covers trial ends, notice deadlines and price increases, and skips paid, paused and cancelled ones', async () => {
    h = await createTestHousehold();
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Trial',
      amount: '9',
      status: 'trial',
      trial_ends_on: '2026-03-04',
      first_charge_date: '2026-03-04',
    });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Phone',
      amount: '20',
      first_charge_date: '2026-01-15',
      contract_ends_on: '2026-03-31',
      notice_days: 27,
    });
    const paid = await h.core.invoke('create_subscription', h.owner, {
      name: 'Paid',
      amount: '5',
      first_charge_date: '2026-03-04',
    });
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: (paid.output as { id: string }).id,
      due_date: '2026-03-04',
    });
    const paused = await h.core.invoke('create_subscription', h.owner, {
      name: 'Paused',
      amount: '5',
      first_charge_date: '2026-03-04',
    });
    await h.core.invoke('pause_subscription', h.owner, {
      id: (paused.output as { id: string }).id,
    });
    const dearer = await h.core.invoke('create_subscription', h.owner, {
      name: 'Dearer',
      amount: '10',
      first_charge_date: '2026-02-20',
    });
    await h.core.invoke('update_subscription', h.owner, {
      id: (dearer.output as { id: string }).id,
      amount: '12',
      price_effective_date: '2026-03-04',
    });
    const reminders = await due('2026-03-03T08:00:00Z');
    expect(reminders.map((d) => [d.kind, d.name, d.event]).sort()).toEqual([
      ['charge', 'Trial', '2026-03-04'],
      ['notice', 'Phone', '2026-03-04'],
      ['price_increase', 'Dearer', '2026-03-04'],
      ['trial_end', 'Trial', '2026-03-04'],
    ]);
  });

  it('sends nothing that fell due before the subscription existed, and nothing for past events', async () => {
    h = await createTestHousehold(); // now: 2026-03-02 10:00 UTC, 11:00 in Madrid
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Tomorrow',
      amount: '1',
      first_charge_date: '2026-03-03',
    });
    expect(await due('2026-03-02T12:00:00Z')).toEqual([]); // the 1-day reminder was due at 09:00, before it was added
    expect(await due('2026-03-04T12:00:00Z')).toEqual([]); // the charge is past
  });
});
