import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type ChannelWork, startChannelWork } from '../../../bot/channels.ts';
import { createEdge } from '../../../bot/http/app.ts';
import { slackAdapter } from '../../../bot/slack/adapter.ts';
import { EVENTS_PATH } from '../../../bot/slack/index.ts';
import { ChannelRegistry } from '../../../core/channels/index.ts';
import type { Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { type FakeChannel, fakeChannel } from '../../core/channels/fakeChannel.ts';
import {
  buttonsOf,
  FakeSlack,
  readable,
  slackRequests,
  type SlackUser,
} from '../../fakes/slackApi.ts';
import { openSharedDatabases } from '../harness.ts';
import { seedSlackHousehold } from './harness.ts';

/**
 * Reminders and agent notices reach a Slack member through the registry: two processes (two Cores
 * on one database, SQLite file or PostgreSQL schema) each run Slack and the scheduler; the reminder
 * goes out once, with its buttons; when Slack refuses, the member's next channel gets it.
 */
describe('reminders through Slack', () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabases>>;
  let slack: FakeSlack;
  const clock = { now: new Date('2026-03-27T07:00:00Z') };
  let cores: Core[];
  let works: ChannelWork[];
  let registries: ChannelRegistry[];
  let backups: FakeChannel[];
  let edges: Array<ReturnType<typeof createEdge>>;
  let ana: SlackUser;
  let actor: Actor;
  const logged: string[] = [];

  beforeEach(async () => {
    clock.now = new Date('2026-03-27T07:00:00Z');
    slack = await new FakeSlack().start();
    ana = slack.user('U1001', 'Ana', 'es-ES');
    shared = await openSharedDatabases(2);
    cores = shared.dbs.map((db) => new Core({ db, catalog, clock: () => new Date(clock.now) }));
    actor = (await seedSlackHousehold(cores[0]!, ana, 'es')).actor;
    await cores[0]!.invoke('create_subscription', actor, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-30',
      cancel_url: 'https://netflix.example/cancel',
    });
    works = [];
    registries = [];
    backups = [];
    edges = [];
    for (const core of cores) {
      const edge = createEdge({ log: () => undefined });
      const backup = fakeChannel('backup', { local: () => true });
      const registry = new ChannelRegistry(core.db, (line) => logged.push(line))
        .register(
          slackAdapter({
            core,
            token: 'xoxb-test',
            signingSecret: 'test-signing-secret',
            apiUrl: slack.url,
            log: (line) => logged.push(line),
            mount: (routes) => edge.mount(EVENTS_PATH, routes),
          }),
        )
        .register(backup);
      await registry.start();
      registries.push(registry);
      backups.push(backup);
      edges.push(edge);
      works.push(
        startChannelWork(core, registry, (line) => logged.push(line), {
          intervalMs: 3_600_000,
          clock: () => new Date(clock.now),
        }),
      );
    }
  });
  afterEach(async () => {
    for (const work of works) work.stop();
    for (const registry of registries) await registry.stop();
    await slack.stop();
    await shared.close();
    logged.length = 0;
  });

  const reminders = () => slack.messagesIn('D1001').filter((m) => m.text.startsWith('🔔'));

  it('delivers a due reminder once with two processes ticking together, in Spanish, with Paid, Skip and Cancel buttons', async () => {
    clock.now = new Date('2026-03-27T08:00:00Z'); // 09:00 in Madrid, 3 days before
    const sent = await Promise.all(works.map((w) => w.scheduler.tick()));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await Promise.all(works.map((w) => w.scheduler.tick()))).toEqual([0, 0]);
    expect(reminders().map((m) => m.text)).toEqual([
      '🔔 Netflix: se cobran 15,99 EUR dentro de 3 días (lun, 30 mar 2026).',
    ]);
    const [reminder] = reminders();
    const labels = buttonsOf(reminder).map((b) => b.label);
    // Paid, Skip, the subscription's card (Manage) and the cancel page.
    expect(labels).toHaveLength(4);
    expect(labels.some((l) => l.includes('Gestionar'))).toBe(true);
    expect(buttonsOf(reminder).find((b) => b.url)?.url).toBe('https://netflix.example/cancel');
    expect(backups.flatMap((b) => b.delivered)).toEqual([]);

    // Marked paid from Slack, through the other process's events URL.
    const paid = buttonsOf(reminder)[0]!;
    const response = await edges[1]!.app.fetch(
      new Request(`http://exhale.test${EVENTS_PATH}`, {
        method: 'POST',
        ...(() => {
          const r = slackRequests.press(ana, reminder!, paid.actionId, paid.value);
          return { headers: r.headers, body: r.body };
        })(),
      }),
    );
    expect(response.status).toBe(200);
    await slack.until(
      () =>
        readable(slack.messagesIn('D1001').at(-1)).includes('Netflix') &&
        slack.messagesIn('D1001').length > 1,
    );
    for (const r of registries) await r.stop();
    expect(await cores[0]!.db.knex('charges').first()).toMatchObject({
      due_date: '2026-03-30',
      status: 'paid',
    });
  });

  it("hands the reminder to the member's next channel when Slack refuses it", async () => {
    slack.refuse('chat.postMessage', 'channel_not_found');
    clock.now = new Date('2026-03-27T08:00:00Z');
    expect(await works[0]!.scheduler.tick()).toBe(1);
    expect(reminders()).toEqual([]);
    expect(backups[0]!.delivered.map((d) => d.reply.text)).toEqual([
      '🔔 Netflix: se cobran 15,99 EUR dentro de 3 días (lun, 30 mar 2026).',
    ]);
  });
});
