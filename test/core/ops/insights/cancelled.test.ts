import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { findDueReminders } from '../../../../core/reminders/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/**
 * The cancellation date is the day a cancellation takes effect: from that day on nothing is
 * charged, counted or reminded of. Every read path is checked on one subscription cancelled today,
 * one cancelled yesterday and one cancelled for later (which still counts until the day before).
 * Today is 2026-03-02 (Europe/Madrid); every subscription was added on 2026-02-20 and charges
 * monthly on the 2nd since 2025-08-02 (so each is a monthly plan older than 6 months, a saving).
 */
describe('cancelled subscriptions in every read path', () => {
  let h: TestHousehold;
  /** Subscription names by id. */
  const ids = new Map<string, string>();
  beforeEach(async () => {
    h = await createTestHousehold();
    const today = h.clock.now;
    h.clock.now = new Date('2026-02-20T10:00:00.000Z');
    const add = async (name: string, amount: string, cancelOn: string | null): Promise<void> => {
      const { output } = await h.core.invoke('create_subscription', h.owner, {
        name,
        amount,
        first_charge_date: '2025-08-02',
        category: 'Streaming',
      });
      ids.set(output.id, name);
      if (cancelOn === null) return;
      h.clock.now = today;
      await h.core.invoke('cancel_subscription', h.owner, {
        id: output.id,
        ...(cancelOn === 'today' ? {} : { effective_date: cancelOn }),
      });
      h.clock.now = new Date('2026-02-20T10:00:00.000Z');
    };
    await add('Running', '10.00', null);
    await add('CancelledToday', '20.00', 'today');
    await add('CancelledYesterday', '40.00', '2026-03-01');
    await add('CancelledLater', '5.00', '2026-04-02');
    h.clock.now = today;
  });
  afterEach(async () => h.close());

  it('totals count the running one and the one cancelled for later, overall and by category', async () => {
    const now = await h.core.invoke('get_totals', h.owner, {});
    expect(now.output.subscription_count).toBe(2);
    expect(now.output.totals.monthly).toBe('15.00');
    const byCategory = await h.core.invoke('get_totals', h.owner, { group_by: 'category' });
    expect(byCategory.output.groups.map((g) => [g.name, g.monthly, g.subscription_count])).toEqual([
      ['Streaming', '15.00', 2],
    ]);
  });

  it('a period total stops charging each one on its cancellation day', async () => {
    const { output } = await h.core.invoke('get_totals', h.owner, {
      from: '2026-03-02',
      to: '2026-04-30',
    });
    // Running: 03-02 and 04-02; CancelledLater: 03-02 only (its 04-02 is its cancellation day).
    expect(output.totals).toMatchObject({ expected: '25.00' });
  });

  it('upcoming lists no charge of a subscription cancelled today or earlier, nor on a later cancellation day', async () => {
    const { output } = await h.core.invoke('get_upcoming', h.owner, { days: 45 });
    expect(output.items.map((i) => [i.date, i.subscription_name])).toEqual([
      ['2026-03-02', 'CancelledLater'],
      ['2026-03-02', 'Running'],
      ['2026-04-02', 'Running'],
    ]);
  });

  it('the context (what the assistant reads) lists only what runs today, with the next charge of each', async () => {
    const { output } = await h.core.invoke('get_context', h.owner, {});
    expect(output.subscriptions.items.map((s) => [s.name, s.next])).toEqual([
      ['CancelledLater', '2026-03-02'],
      ['Running', '2026-03-02'],
    ]);
    expect(output.totals.monthly).toBe('15.00');
    expect(output.upcoming.items.map((i) => i.name).sort()).toEqual(['CancelledLater', 'Running']);
  });

  it('savings look only at what still runs and is not being cancelled', async () => {
    const { output } = await h.core.invoke('find_savings', h.owner, {});
    const named = output.findings.flatMap((f) => f.subscription_ids.map((id) => ids.get(id)));
    expect(named).toEqual(['Running']);
  });

  it('sends no reminder for a charge due on or after the cancellation day', async () => {
    // Reminded on the day itself, at 12:00 in Madrid.
    await h.core.invoke('update_member', h.owner, {
      id: h.ownerId,
      reminder_offsets: [0],
      reminder_time: '12:00',
    });
    const due = await findDueReminders(h.db, new Date('2026-03-02T11:30:00Z'));
    expect(due.map((d) => [d.reminder.subscriptionName, d.reminder.eventDate]).sort()).toEqual([
      ['CancelledLater', '2026-03-02'],
      ['Running', '2026-03-02'],
    ]);
  });
});
