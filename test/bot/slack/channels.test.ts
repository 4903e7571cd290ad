import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChannelConfigError, startChannels } from '../../../bot/channels.ts';
import { loadConfig } from '../../../bot/config.ts';
import { createEdge, type RouteGroup } from '../../../bot/http/app.ts';
import { EVENTS_PATH } from '../../../bot/slack/index.ts';
import type { Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { Database } from '../../../core/store/connection.ts';
import { buttonsOf, FakeSlack, readable, slackRequests } from '../../fakes/slackApi.ts';
import { openTestDatabase, TEST_NOW } from '../../helpers/testCore.ts';
import { seedSlackHousehold } from './harness.ts';

/** Slack from configuration, as bot/main.ts starts it through `startChannels`. */
describe('startChannels with Slack', () => {
  let slack: FakeSlack;
  let db: Database;
  let core: Core<typeof catalog>;
  const lines: string[] = [];
  beforeEach(async () => {
    slack = await new FakeSlack().start();
    db = await openTestDatabase();
    core = new Core({ db, catalog, clock: () => new Date(TEST_NOW) });
    lines.length = 0;
  });
  afterEach(async () => {
    await slack.stop();
    await db.close();
  });

  const config = () =>
    loadConfig({
      EXHALE_SLACK_BOT_TOKEN: 'xoxb-test',
      EXHALE_SLACK_SIGNING_SECRET: 'test-signing-secret',
      EXHALE_SLACK_API_URL: slack.url,
    });

  it('connects Slack without Telegram and mounts its events routes', async () => {
    const mounted: RouteGroup[] = [];
    const channels = await startChannels(
      core,
      config(),
      () => undefined,
      (l) => lines.push(l),
      (r) => mounted.push(r),
    );
    expect(channels.status).toEqual([
      '  Telegram: off (set EXHALE_TELEGRAM_TOKEN to connect a bot)',
      '  Slack: on (events at /slack/events), reminders on',
    ]);
    expect(mounted).toHaveLength(1);
    await channels.stop();
    expect(lines).toEqual([]);
  });

  it("reports an agent's change to the member in Slack, in Spanish, and its Undo reverts it", async () => {
    const mounted: RouteGroup[] = [];
    const channels = await startChannels(
      core,
      config(),
      () => undefined,
      (l) => lines.push(l),
      (r) => mounted.push(r),
    );
    const edge = createEdge({ log: () => undefined });
    edge.mount(EVENTS_PATH, mounted[0]!);
    try {
      const ana = slack.user('U1001', 'Ana', 'es-ES');
      const { actor } = await seedSlackHousehold(core, ana, 'es');
      const agent: Actor = {
        ...actor,
        kind: 'agent',
        scope: 'write',
        channel: 'mcp',
        agent: { name: 'Claude', tokenId: 'tok_1' },
      };
      await core.invoke('create_subscription', agent, { name: 'Notion', amount: '10' });
      const notice = await slack.until(() =>
        slack.messagesIn('D1001').find((m) => readable(m).includes('Claude')),
      );
      expect(readable(notice)).toContain('Notion');
      const undo = buttonsOf(notice).find((b) => b.label.includes('Deshacer'))!;
      const press = slackRequests.press(ana, notice, undo.actionId, undo.value);
      const response = await edge.app.fetch(
        new Request(`http://exhale.test${EVENTS_PATH}`, {
          method: 'POST',
          headers: press.headers,
          body: press.body,
        }),
      );
      expect(response.status).toBe(200);
      await slack.until(() =>
        slack.messagesIn('D1001').find((m) => readable(m).includes('Deshecho')),
      );
      expect(await db.knex('subscriptions')).toEqual([]);
    } finally {
      await channels.stop();
    }
    expect(lines).toEqual([]);
  });

  it('stops start-up with a sentence naming the variable when Slack refuses the token', async () => {
    slack.invalidAuth = true;
    await expect(
      startChannels(
        core,
        config(),
        () => undefined,
        (l) => lines.push(l),
      ),
    ).rejects.toThrow(
      new ChannelConfigError(
        'Slack refused EXHALE_SLACK_BOT_TOKEN (invalid_auth). Copy the Bot User OAuth Token (xoxb-…) from your app\'s "OAuth & Permissions" page.',
      ),
    );
  });

  it('refuses a malformed token in the configuration, naming the variable', () => {
    expect(() => loadConfig({ EXHALE_SLACK_BOT_TOKEN: 'xoxp-user' })).toThrow(
      /EXHALE_SLACK_BOT_TOKEN: must be a bot token/,
    );
  });
});
