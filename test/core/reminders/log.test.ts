import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  claimReminder,
  findDueReminders,
  LEASE_MS,
  markFailed,
  markSent,
  MAX_ATTEMPTS,
  purgeReminderLog,
} from '../../../core/reminders/index.ts';
import type { DueReminder } from '../../../core/reminders/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe('the reminder sent-log', () => {
  let h: TestHousehold;
  let due: DueReminder;
  const now = new Date('2026-03-03T08:00:00Z');
  beforeEach(async () => {
    h = await createTestHousehold();
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-06',
    });
    const found = await findDueReminders(h.db, now);
    expect(found).toHaveLength(1);
    due = found[0]!;
  });
  afterEach(async () => h.close());

  const row = () => h.db.knex('reminder_log').where({ id: due.reminder.key }).first();

  it('lets exactly one of many concurrent claims win', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 6 }, () => claimReminder(h.db, due, now)),
    );
    expect(tokens.filter((t) => t !== null)).toHaveLength(1);
    expect(await row()).toMatchObject({
      status: 'claimed',
      attempts: 1,
      kind: 'charge',
      offset_days: 3,
      event_date: '2026-03-06',
    });
  });

  it('is no longer due once sent', async () => {
    const token = await claimReminder(h.db, due, now);
    await markSent(h.db, due.reminder.key, token!, now);
    expect(await row()).toMatchObject({
      status: 'sent',
      sent_at: now.toISOString(),
      claim_token: null,
    });
    expect(await findDueReminders(h.db, new Date(now.getTime() + 3 * LEASE_MS))).toEqual([]);
    expect(await claimReminder(h.db, due, new Date(now.getTime() + 3 * LEASE_MS))).toBeNull();
  });

  it('lets another process take over a claim whose lease ran out (a process died before sending)', async () => {
    expect(await claimReminder(h.db, due, now)).not.toBeNull();
    const early = new Date(now.getTime() + LEASE_MS - 1000);
    expect(await findDueReminders(h.db, early)).toEqual([]);
    expect(await claimReminder(h.db, due, early)).toBeNull();
    const late = new Date(now.getTime() + LEASE_MS + 1000);
    expect(await findDueReminders(h.db, late)).toHaveLength(1);
    const [first, second] = await Promise.all([
      claimReminder(h.db, due, late),
      claimReminder(h.db, due, late),
    ]);
    expect([first, second].filter((t) => t !== null)).toHaveLength(1);
    expect(await row()).toMatchObject({ attempts: 2 });
  });

  it('retries a failed send after the lease and gives up after the last attempt', async () => {
    let at = now;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const token = await claimReminder(h.db, due, at);
      expect(token).not.toBeNull();
      await markFailed(h.db, due.reminder.key, token!, at, `boom ${attempt}`);
      at = new Date(at.getTime() + LEASE_MS + 1000);
    }
    expect(await row()).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: `boom ${MAX_ATTEMPTS}`,
    });
    expect(await findDueReminders(h.db, at)).toEqual([]);
  });

  it('forgets entries of long-past events', async () => {
    const token = await claimReminder(h.db, due, now);
    await markSent(h.db, due.reminder.key, token!, now);
    expect(await purgeReminderLog(h.db, '2026-06-01')).toBe(0);
    expect(await purgeReminderLog(h.db, '2026-09-01')).toBe(1);
  });
});
