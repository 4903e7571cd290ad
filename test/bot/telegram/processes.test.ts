import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { deriveWebhookSecret } from '../../../bot/telegram/index.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

describe('Two bot processes on one database', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({ processes: 2, now: new Date('2026-03-20T10:00:00Z') });
  });
  afterEach(async () => w.close());

  it("answer each other's buttons (state lives in the database) and send a due reminder once", async () => {
    const [a, b] = await w.startBalanced();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const seeded = await seedHousehold(w.cores[0]!, ana);
    // The balancer alternates: /add goes to one process, the press on its preview to the other.
    const preview = await w.tg.ask(ana, '/add Netflix 15.99');
    await w.tg.tap(ana, preview, 'Add');
    expect(w.tg.message(ana.id, preview.message_id)?.text).toContain('✅ Added Netflix');
    expect([a!.hits, b!.hits]).toEqual([1, 1]);

    await w.cores[1]!.invoke('create_subscription', seeded.actor, {
      name: 'Gym',
      amount: '30',
      first_charge_date: '2026-03-30',
    });
    w.clock.now = new Date('2026-03-29T07:05:00Z');
    const sent = await Promise.all([
      a!.scheduler.tick(),
      b!.scheduler.tick(),
      a!.scheduler.tick(),
      b!.scheduler.tick(),
    ]);
    expect(sent.reduce((x, y) => x + y, 0)).toBe(1);
    const texts = w.tg
      .botMessages(ana.id)
      .filter((m) => m.text?.startsWith('🔔'))
      .map((m) => m.text);
    expect(texts).toEqual(['🔔 Gym: 30.00 EUR is due tomorrow (Mon, 30 Mar 2026).']);
    expect(await w.cores[0]!.db.knex('reminder_log').where({ status: 'sent' })).toHaveLength(1);
    expect(w.logged).toEqual([]);
  });

  it('refuses a webhook call without the secret token', async () => {
    const [a] = await w.startBalanced();
    const response = await fetch(`${a!.http!.url}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': 'wrong' },
      body: JSON.stringify({
        update_id: 1,
        message: {
          message_id: 1,
          date: 0,
          chat: { id: 5, type: 'private' },
          from: { id: 5, is_bot: false, first_name: 'X' },
          text: '/start',
        },
      }),
    });
    expect(response.status).toBe(401);
    expect(w.tg.callsOf('sendMessage')).toEqual([]);
  });
});

describe('Webhook re-deliveries', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({ processes: 2 });
  });
  afterEach(async () => w.close());

  it('handle an update once even when Telegram delivers it again to another process', async () => {
    const [a, b] = await w.startBalanced();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    const update = await w.tg.sendText(ana, '/add Netflix 15.99 EUR monthly 5');
    await w.tg.waitForMessages(ana.id, 1);
    // The same update again, as after a timed-out webhook call; the balancer sends it to the other process.
    const secret = deriveWebhookSecret(w.tg.token);
    const response = await fetch(`${a!.http!.url}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update),
    });
    expect(response.status).toBe(200);
    expect([a!.hits, b!.hits]).toEqual([1, 1]);
    expect(await w.cores[0]!.db.knex('subscriptions')).toHaveLength(1);
    expect(w.tg.botMessages(ana.id)).toHaveLength(1);
  });
});
