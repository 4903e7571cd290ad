import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { POLLING_CONFLICT } from '../../../bot/telegram/polling.ts';
import type { TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

describe('Two processes long polling one bot', () => {
  let w: World;
  let ana: TgUser;
  let seeded: Awaited<ReturnType<typeof seedHousehold>>;
  beforeEach(async () => {
    w = await createWorld({ processes: 2, now: new Date('2026-03-20T10:00:00Z') });
    ana = w.tg.user(1001, 'Ana', 'en');
    seeded = await seedHousehold(w.cores[0]!, ana);
  });
  afterEach(async () => w.close());

  it('a 409 from getUpdates is one logged sentence; polling stops there and everything else keeps running', async () => {
    const first = await w.start({ index: 0 });
    const second = await w.start({ index: 1 });
    // Telegram ends one of the two polls with 409 "terminated by other getUpdates request".
    await w.waitForLog(POLLING_CONFLICT);
    expect(w.logged).toEqual([{ message: POLLING_CONFLICT, error: undefined }]);
    expect(
      w.tg
        .callsOf('getUpdates')
        .some((call) => call.description?.includes('terminated by other getUpdates') === true),
    ).toBe(true);

    // The process that still polls answers; both keep their schedulers and send reminders.
    expect((await w.tg.ask(ana, '/help')).text).toContain('Here is what I can do');
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-30',
    });
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-31',
    });
    w.clock.now = new Date('2026-03-27T08:00:00Z'); // 09:00 in Madrid, 3 days before the gym
    expect(await first.scheduler.tick()).toBe(1);
    w.clock.now = new Date('2026-03-28T08:00:00Z'); // 3 days before Netflix
    expect(await second.scheduler.tick()).toBe(1);
    expect(
      w.tg
        .botMessages(ana.id)
        .filter((m) => m.text?.startsWith('🔔'))
        .map((m) => m.text),
    ).toHaveLength(2);
    expect(w.logged).toHaveLength(1);
  });
});
