import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import type { TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

describe('Telegram bot resilience and agent notices', () => {
  let w: World;
  let ana: TgUser;
  let seeded: Awaited<ReturnType<typeof seedHousehold>>;
  beforeEach(async () => {
    w = await createWorld();
    ana = w.tg.user(1001, 'Ana', 'en');
    seeded = await seedHousehold(w.cores[0]!, ana);
  });
  afterEach(async () => w.close());

  it('retries a 429 after retry_after (auto-retry) and answers', async () => {
    await w.start();
    w.tg.failNext('sendMessage', { error_code: 429, retry_after: 1 });
    const started = Date.now();
    const reply = await w.tg.ask(ana, '/help');
    expect(reply.text).toContain('Here is what I can do');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(w.tg.callsOf('sendMessage').map((c) => c.ok)).toEqual([false, true]);
    expect(w.logged).toEqual([]);
  });

  it('logs a failing update, answers it with a short apology and keeps serving', async () => {
    await w.start();
    w.tg.failNext('sendMessage', { error_code: 400, description: 'Bad Request: something broke' });
    const apology = await w.tg.ask(ana, '/help');
    expect(apology.text).toBe(
      'Sorry, something went wrong on our side. Nothing was changed; please try again.',
    );
    expect(w.logged.map((l) => l.message)).toEqual(['chat: text failed']);
    // Even when no apology can be sent either (the engine's and the error boundary's), the process keeps going.
    w.tg.failNext('sendMessage', {
      error_code: 400,
      description: 'Bad Request: something broke',
      times: 3,
    });
    await w.tg.sendText(ana, '/help');
    await w.tg.waitFor((api) => api.callsOf('sendMessage').filter((c) => !c.ok).length === 4);
    expect(w.logged.map((l) => l.message)).toEqual([
      'chat: text failed',
      'chat: text failed',
      expect.stringMatching(/^telegram: update \d+ failed$/),
    ]);
    expect((await w.tg.ask(ana, '/list')).text).toContain('You have no subscriptions yet.');
  });

  it('tells the member about a change an agent made over MCP, with Undo', async () => {
    await w.start();
    await w.tg.ask(ana, '/help');
    const agent: Actor = {
      ...seeded.actor,
      kind: 'agent',
      scope: 'write',
      channel: 'mcp',
      agent: { name: 'Claude', tokenId: 'tok_1' },
    };
    await w.cores[0]!.invoke('create_subscription', agent, { name: 'Notion', amount: '10' });
    const [, notice] = await w.tg.waitForMessages(ana.id, 2);
    expect(notice!.text).toBe('🤖 Claude changed something for you\nAdded Notion');
    await w.tg.tap(ana, notice!, 'Undo');
    expect(await w.cores[0]!.db.knex('subscriptions')).toEqual([]);
    // Changes made by the member themself are not echoed.
    await w.cores[0]!.invoke('create_subscription', seeded.actor, { name: 'Gym', amount: '30' });
    await new Promise((r) => setTimeout(r, 100));
    expect(w.tg.botMessages(ana.id).filter((m) => m.text?.startsWith('🤖'))).toHaveLength(1);
  });

  it('shows a Mini App button in private chats when its URL is configured', async () => {
    await w.start({ miniAppUrl: 'https://app.example.test/' });
    const help = await w.tg.ask(ana, '/help');
    expect(help.reply_markup!.inline_keyboard.flat()).toEqual([
      { text: '📱 Open Exhale', web_app: { url: 'https://app.example.test/' } },
    ]);
    expect(w.tg.menu).toEqual({
      type: 'web_app',
      text: 'Exhale',
      web_app: { url: 'https://app.example.test/' },
    });
  });
});
