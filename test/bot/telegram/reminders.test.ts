import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

// Europe/Madrid moves from CET (UTC+1) to CEST (UTC+2) at 01:00 UTC on Sunday 2026-03-29.
describe('Telegram reminders', () => {
  let w: World;
  let ana: TgUser;
  let seeded: Awaited<ReturnType<typeof seedHousehold>>;
  beforeEach(async () => {
    w = await createWorld({ now: new Date('2026-03-20T10:00:00Z') });
    ana = w.tg.user(1001, 'Ana', 'en');
    seeded = await seedHousehold(w.cores[0]!, ana);
  });
  afterEach(async () => w.close());

  const reminders = () => w.tg.botMessages(ana.id).filter((m) => m.text?.startsWith('🔔'));

  it('delivers each reminder once at 09:00 local time, before and after the DST change, with Paid and Skip buttons', async () => {
    const bot = await w.start();
    await w.tg.ask(ana, '/help');
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-30',
      cancel_url: 'https://netflix.example/cancel',
    });

    w.clock.now = new Date('2026-03-27T07:59:00Z'); // 08:59 CET
    expect(await bot.scheduler.tick()).toBe(0);
    w.clock.now = new Date('2026-03-27T08:00:00Z'); // 09:00 CET, 3 days before
    expect(await bot.scheduler.tick()).toBe(1);
    expect(await bot.scheduler.tick()).toBe(0);
    expect(reminders().map((m) => m.text)).toEqual([
      '🔔 Netflix: 15.99 EUR is due in 3 days (Mon, 30 Mar 2026).',
    ]);
    expect(
      reminders()[0]!
        .reply_markup!.inline_keyboard.flat()
        .map((b) => b.text),
    ).toEqual(['✅ Paid', '⏭️ Skip this one', '🚪 Cancel page', '⚙️ Manage']);

    w.clock.now = new Date('2026-03-29T06:59:00Z'); // 08:59 CEST: 07:59 would be 09:00 without DST
    expect(await bot.scheduler.tick()).toBe(0);
    w.clock.now = new Date('2026-03-29T07:00:00Z'); // 09:00 CEST, 1 day before
    expect(await bot.scheduler.tick()).toBe(1);
    w.clock.now = new Date('2026-03-29T12:00:00Z');
    expect(await bot.scheduler.tick()).toBe(0);
    expect(reminders().map((m) => m.text)).toEqual([
      '🔔 Netflix: 15.99 EUR is due in 3 days (Mon, 30 Mar 2026).',
      '🔔 Netflix: 15.99 EUR is due tomorrow (Mon, 30 Mar 2026).',
    ]);

    await w.tg.tap(ana, reminders()[1]!, 'Paid');
    const charge = await w.cores[0]!.db.knex('charges').first();
    expect(charge).toMatchObject({ due_date: '2026-03-30', status: 'paid', amount_minor: 1599 });
    expect(w.tg.lastBotMessage(ana.id)?.text).toContain('Marked Netflix paid');
    expect(reminders()[1]!.reply_markup).toBeUndefined();
    expect(w.logged).toEqual([]);
  });

  it('catches up after downtime with only the nearest reminder of an event', async () => {
    const bot = await w.start();
    await w.tg.ask(ana, '/help');
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-30',
    });
    w.clock.now = new Date('2026-03-29T15:00:00Z'); // both the 3-day and the 1-day reminder were missed
    expect(await bot.scheduler.tick()).toBe(1);
    expect(reminders().map((m) => m.text)).toEqual([
      '🔔 Gym: 30.00 EUR is due tomorrow (Mon, 30 Mar 2026).',
    ]);
    const log = await w.cores[0]!.db.knex('reminder_log').orderBy('offset_days');
    expect(
      log.map((r: { offset_days: number; status: string }) => [r.offset_days, r.status]),
    ).toEqual([
      [1, 'sent'],
      [3, 'superseded'],
    ]);
  });

  it('records a failed delivery and retries it after the lease', async () => {
    const bot = await w.start();
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-30',
    });
    w.clock.now = new Date('2026-03-29T07:30:00Z');
    // Ana never opened a chat with the bot: Telegram refuses with 403.
    expect(await bot.scheduler.tick()).toBe(0);
    expect(
      await w.cores[0]!.db.knex('reminder_log').where({ offset_days: 1 }).first(),
    ).toMatchObject({
      status: 'claimed',
      attempts: 1,
      last_error: expect.stringContaining("bot can't initiate conversation"),
    });
    await w.tg.ask(ana, '/help');
    expect(await bot.scheduler.tick()).toBe(0); // still within the lease
    w.clock.now = new Date('2026-03-29T07:33:00Z');
    expect(await bot.scheduler.tick()).toBe(1);
    expect(reminders()).toHaveLength(1);
    expect(
      await w.cores[0]!.db.knex('reminder_log').where({ offset_days: 1 }).first(),
    ).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
