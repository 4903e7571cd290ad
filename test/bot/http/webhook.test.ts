import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { deriveWebhookSecret } from '../../../bot/telegram/index.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

describe('The Telegram webhook on the HTTP edge', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.close());

  const post = (url: string, secret: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/telegram/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-telegram-bot-api-secret-token': secret,
        ...headers,
      },
      body,
    });

  it('answers a malformed body with the right secret 400, logs one line and processes nothing', async () => {
    const bot = await w.start({ mode: 'webhook' });
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    const callsBefore = w.tg.calls.length;

    const response = await post(bot.http!.url, deriveWebhookSecret(w.tg.token), '{"update_id":', {
      'x-request-id': 'tg-bad-1',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe('tg-bad-1');
    expect(await response.json()).toMatchObject({ error: 'invalid_input' });
    expect(w.tg.calls.length).toBe(callsBefore);
    expect(w.logged).toEqual([
      {
        message:
          'http tg-bad-1 POST /telegram/webhook: webhook body is not JSON; answered 400, nothing processed',
        error: undefined,
      },
    ]);

    // The bot is unharmed: the next real update is handled.
    await w.tg.sendText(ana, '/add Netflix 15.99 EUR monthly 5');
    await w.tg.waitForMessages(ana.id, 1);
    expect(await w.cores[0]!.db.knex('subscriptions')).toHaveLength(1);
  });

  it('still refuses a wrong secret 401 before looking at the body', async () => {
    const bot = await w.start({ mode: 'webhook' });
    const response = await post(bot.http!.url, 'wrong', '{"update_id":');
    expect(response.status).toBe(401);
    expect(w.logged).toEqual([]);
  });

  it('answers only POST: other methods are 404', async () => {
    const bot = await w.start({ mode: 'webhook' });
    const response = await fetch(`${bot.http!.url}/telegram/webhook`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });
});
