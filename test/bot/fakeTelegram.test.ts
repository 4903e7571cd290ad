import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { FakeTelegram } from '../fakes/telegramBotApi.ts';

/** The fake must behave like Telegram on the wire, or the scenario tests prove little. */
describe('the fake Telegram Bot API', () => {
  let tg: FakeTelegram;
  beforeEach(async () => {
    tg = await new FakeTelegram().start();
  });
  afterEach(async () => tg.stop());

  const call = async (method: string, body?: unknown, init: RequestInit = {}) => {
    const response = await fetch(`${tg.apiRoot}/bot${tg.token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      ...init,
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        ok: boolean;
        result?: unknown;
        error_code?: number;
        description?: string;
        parameters?: { retry_after?: number };
      },
    };
  };

  it('answers 401 to a wrong token and 404 to an unknown method', async () => {
    expect((await fetch(`${tg.apiRoot}/bot1:wrong/getMe`)).status).toBe(401);
    expect(await call('noSuchMethod')).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: 'Not Found: method not found' },
    });
  });

  it('long-polls: holds the request until an update arrives, and offset confirms earlier updates', async () => {
    const ana = tg.user(1, 'Ana');
    const started = Date.now();
    const poll = call('getUpdates', { timeout: 5 });
    setTimeout(() => void tg.sendText(ana, 'hi'), 100);
    const first = await poll;
    expect(Date.now() - started).toBeLessThan(2000);
    const updates = first.body.result as Array<{ update_id: number; message: { text: string } }>;
    expect(updates.map((u) => u.message.text)).toEqual(['hi']);
    await tg.sendText(ana, 'again');
    const both = (await call('getUpdates', { timeout: 0 })).body.result as Array<{
      update_id: number;
    }>;
    expect(both).toHaveLength(2);
    const after = (await call('getUpdates', { offset: both[1]!.update_id + 1, timeout: 0 })).body
      .result;
    expect(after).toEqual([]);
    // Confirmed updates are gone for good; limit caps a batch.
    expect((await call('getUpdates', { offset: both[0]!.update_id })).body.result).toEqual([]);
    await tg.sendText(ana, 'three');
    await tg.sendText(ana, 'four');
    expect(((await call('getUpdates', { limit: 1 })).body.result as unknown[]).length).toBe(1);
  });

  it('terminates a pending getUpdates with 409 when a second poller arrives, as Telegram does', async () => {
    const first = call('getUpdates', { timeout: 5 });
    await new Promise((r) => setTimeout(r, 50));
    const second = call('getUpdates', { timeout: 0 });
    expect((await first).body).toEqual({
      ok: false,
      error_code: 409,
      description:
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    expect((await second).status).toBe(200);
  });

  it('takes form-urlencoded and multipart bodies, with JSON-encoded fields', async () => {
    const ana = tg.user(1, 'Ana');
    await tg.sendText(ana, '/start');
    const form = new URLSearchParams({
      chat_id: '1',
      text: 'from a form',
      reply_markup: JSON.stringify({ inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] }),
    });
    expect(
      (await fetch(`${tg.apiRoot}/bot${tg.token}/sendMessage`, { method: 'POST', body: form }))
        .status,
    ).toBe(200);
    const multipart = new FormData();
    multipart.set('chat_id', '1');
    multipart.set('text', 'from multipart');
    expect(
      (await fetch(`${tg.apiRoot}/bot${tg.token}/sendMessage`, { method: 'POST', body: multipart }))
        .status,
    ).toBe(200);
    expect(
      tg
        .botMessages(1)
        .map((m) => [m.text, m.reply_markup?.inline_keyboard[0]?.[0]?.callback_data]),
    ).toEqual([
      ['from a form', 'a'],
      ['from multipart', undefined],
    ]);
  });

  it("enforces Telegram's limits with its error bodies", async () => {
    const ana = tg.user(1, 'Ana');
    expect((await call('sendMessage', { chat_id: 1, text: 'hi' })).body).toMatchObject({
      error_code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
    await tg.sendText(ana, '/start');
    expect((await call('sendMessage', { chat_id: 1, text: 'x'.repeat(4097) })).body).toMatchObject({
      error_code: 400,
      description: 'Bad Request: message is too long',
    });
    expect((await call('sendMessage', { chat_id: 1, text: 'x'.repeat(4096) })).status).toBe(200);
    // The limit counts the text after entity parsing.
    expect(
      (
        await call('sendMessage', {
          chat_id: 1,
          text: `<b>${'x'.repeat(4096)}</b>`,
          parse_mode: 'HTML',
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('sendMessage', { chat_id: 1, text: '<blink>x</blink>', parse_mode: 'HTML' })).body
        .description,
    ).toContain("can't parse entities");
    expect(
      (
        await call('sendMessage', {
          chat_id: 1,
          text: 'x',
          reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'y'.repeat(65) }]] },
        })
      ).body.description,
    ).toBe('Bad Request: BUTTON_DATA_INVALID');
    const sent = (await call('sendMessage', { chat_id: 1, text: 'same  ' })).body.result as {
      message_id: number;
    };
    expect(
      (await call('editMessageText', { chat_id: 1, message_id: sent.message_id, text: 'same' }))
        .body.description,
    ).toContain('message is not modified');
    expect(
      (await call('editMessageText', { chat_id: 1, message_id: 999, text: 'x' })).body.description,
    ).toBe('Bad Request: message to edit not found');
    tg.failNext('sendMessage', { error_code: 429, retry_after: 3 });
    expect(await call('sendMessage', { chat_id: 1, text: 'x' })).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 3',
        parameters: { retry_after: 3 },
      },
    });
  });

  it('posts updates to a webhook with the secret header and refuses getUpdates meanwhile', async () => {
    const received: Array<{ secret: string | undefined; body: string }> = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({
          secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined,
          body,
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      expect(
        (
          await call('setWebhook', {
            url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
            secret_token: 'bad secret!',
          })
        ).body.description,
      ).toContain('secret token contains unallowed characters');
      await call('setWebhook', {
        url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
        secret_token: 's3cr3t_-',
      });
      await tg.sendText(tg.user(1, 'Ana'), 'hello');
      expect(received).toHaveLength(1);
      expect(received[0]!.secret).toBe('s3cr3t_-');
      expect(JSON.parse(received[0]!.body)).toMatchObject({ message: { text: 'hello' } });
      expect((await call('getUpdates')).body).toMatchObject({ error_code: 409 });
      expect((await call('getWebhookInfo')).body.result).toMatchObject({
        url: expect.stringContaining('127.0.0.1'),
      });
    } finally {
      await new Promise((r) => hook.close(r));
    }
  });
});
