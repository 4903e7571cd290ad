import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChannelConfigError, startChannels } from '../../bot/channels.ts';
import { loadConfig } from '../../bot/config.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { catalog } from '../../core/ops/catalog.ts';
import type { Database } from '../../core/store/connection.ts';
import { FakeTelegram } from '../fakes/telegramBotApi.ts';
import { openTestDatabase, TEST_NOW } from '../helpers/testCore.ts';
import { seedHousehold } from './harness.ts';

/** `startChannels` as bot/main.ts calls it, from configuration. */
describe('startChannels', () => {
  let tg: FakeTelegram;
  let db: Database;
  let core: Core<typeof catalog>;
  const lines: string[] = [];
  const log = (line: string): void => {
    lines.push(line);
  };
  beforeEach(async () => {
    tg = await new FakeTelegram().start();
    db = await openTestDatabase();
    core = new Core({ db, catalog, clock: () => new Date(TEST_NOW) });
    lines.length = 0;
  });
  afterEach(async () => {
    await tg.stop();
    await db.close();
  });

  it('starts with no Telegram at all, and stops', async () => {
    const channels = await startChannels(core, loadConfig({}), () => undefined, log);
    expect(channels.status).toEqual([
      '  Telegram: off (set EXHALE_TELEGRAM_TOKEN to connect a bot)',
      '  Slack: off (set EXHALE_SLACK_BOT_TOKEN and EXHALE_SLACK_SIGNING_SECRET to connect an app)',
    ]);
    expect(channels.botUsername()).toBeNull();
    await channels.stop();
    expect(lines).toEqual([]);
  });

  it('with a token, runs Telegram as a channel: an agent’s change reaches the member there', async () => {
    const config = loadConfig({
      EXHALE_TELEGRAM_TOKEN: tg.token,
      EXHALE_TELEGRAM_API_ROOT: tg.apiRoot,
    });
    const channels = await startChannels(core, config, () => undefined, log);
    try {
      expect(channels.status).toEqual([
        '  Telegram: on (long polling), reminders on',
        '  Slack: off (set EXHALE_SLACK_BOT_TOKEN and EXHALE_SLACK_SIGNING_SECRET to connect an app)',
      ]);
      // getMe's username, as the bot learnt it at start (the web app's /api/me reads it).
      expect(channels.botUsername()).toBe('exhale_test_bot');
      const ana = tg.user(1001, 'Ana', 'en');
      const seeded = await seedHousehold(core, ana);
      await tg.ask(ana, '/help'); // Telegram delivers only to people who opened the chat
      const agent: Actor = {
        ...seeded.actor,
        kind: 'agent',
        scope: 'write',
        channel: 'mcp',
        agent: { name: 'Claude', tokenId: 'tok_1' },
      };
      await core.invoke('create_subscription', agent, { name: 'Notion', amount: '10' });
      const [, notice] = await tg.waitForMessages(ana.id, 2);
      expect(notice?.text).toContain('Claude');
      expect(notice?.text).toContain('Added Notion');
    } finally {
      await channels.stop();
    }
    expect(lines).toEqual([]);
  });

  it('stops start-up with a sentence when Telegram refuses the token', async () => {
    const config = loadConfig({
      EXHALE_TELEGRAM_TOKEN: '123:not-the-token',
      EXHALE_TELEGRAM_API_ROOT: tg.apiRoot,
    });
    await expect(startChannels(core, config, () => undefined, log)).rejects.toThrow(
      ChannelConfigError,
    );
  });
});
