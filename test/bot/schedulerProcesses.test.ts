import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { newcomerActor, memberActor, type Actor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { addDays, localDate } from '../../core/domain/dates.ts';
import { LEASE_MS } from '../../core/reminders/log.ts';
import type { Database } from '../../core/store/connection.ts';
import { FakeSlack, readable } from '../fakes/slackApi.ts';
import { FakeTelegram } from '../fakes/telegramBotApi.ts';
import { type ExhaleServer, startExhaleProcess } from '../helpers/exhaleProcess.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../helpers/sharedDatabase.ts';

const TG_USER = 3001;
const ZONE = 'Europe/Madrid';

/**
 * Two real `exhale` processes on one database (a SQLite file, or a PostgreSQL schema when
 * EXHALE_TEST_DATABASE_URL is set), each with Slack (the fake Web API) and Telegram (the fake Bot
 * API) and its scheduler ticking every second: a reminder due goes out once, through the channel
 * its member has, whichever process finds it first; a process killed while sending one loses it
 * to nobody: the other sends it once the dead one's claim has lapsed.
 */
describe('reminders with two exhale processes on one database', () => {
  let shared: SharedTestDatabase;
  let db: Database;
  let slack: FakeSlack;
  let tg: FakeTelegram;
  let processes: ExhaleServer[];
  /** The test's own Core, recording the households "yesterday" so today's reminders are due. */
  let core: Core;
  let ana: Actor;
  let bob: Actor;

  const envOf = (botToken: string): Record<string, string> => {
    const base: Record<string, string> = {
      EXHALE_SLACK_BOT_TOKEN: botToken,
      EXHALE_SLACK_SIGNING_SECRET: 'test-signing-secret',
      EXHALE_SLACK_API_URL: slack.url,
      EXHALE_TELEGRAM_TOKEN: tg.token,
      EXHALE_TELEGRAM_API_ROOT: tg.apiRoot,
      // Webhooks, as several processes need (two long pollers would fight over getUpdates).
      EXHALE_PUBLIC_URL: 'https://exhale.example',
      EXHALE_SCHEDULER_SECONDS: '1',
    };
    if (shared.dialect === 'sqlite')
      return { ...base, EXHALE_DATA_DIR: path.dirname(shared.sqliteFile ?? '') };
    const url = new URL(shared.url ?? '');
    url.searchParams.set('options', `-c search_path=${shared.schema ?? ''}`);
    return { ...base, EXHALE_DATABASE_URL: url.toString() };
  };

  /** A household of one member reached on `platform`, reminded at midnight the day before. */
  async function household(
    platform: 'slack' | 'telegram',
    account: string,
    name: string,
  ): Promise<Actor> {
    const created = await core.invoke(
      'create_household',
      newcomerActor(platform, 'es', { [platform]: account }),
      {
        name: `Casa de ${name}`,
        currency: 'EUR',
        time_zone: ZONE,
        language: 'es',
        owner_name: name,
      },
    );
    const { household: hh, member } = created.output as {
      household: { id: string };
      member: { id: string };
    };
    const actor = memberActor(
      { id: member.id, household_id: hh.id, role: 'owner', language: 'es' },
      platform,
    );
    await core.invoke('update_member', actor, {
      id: member.id,
      reminder_offsets: [1],
      reminder_time: '00:00',
    });
    return actor;
  }

  /** A subscription charged tomorrow: its reminder (today at 00:00 local) is due now. */
  const chargedTomorrow = (actor: Actor, name: string) =>
    core.invoke('create_subscription', actor, {
      name,
      amount: '9.99',
      first_charge_date: addDays(localDate(new Date(), ZONE), 1),
    });

  /** The reminder log's statuses once every row has settled (a process marks a row after its send). */
  async function settledLog(rows: number): Promise<string[]> {
    for (let i = 0; i < 400; i++) {
      const statuses = (await db.knex('reminder_log').orderBy('id').pluck('status')) as string[];
      if (statuses.length === rows && statuses.every((s) => s !== 'claimed')) return statuses;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return (await db.knex('reminder_log').orderBy('id').pluck('status')) as string[];
  }

  const slackReminders = (name: string) =>
    slack.messagesIn('D1001').filter((m) => readable(m).includes(name));
  const telegramReminders = (name: string) =>
    tg.botMessages(TG_USER).filter((m) => (m.text ?? '').includes(name));

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    db = shared.open();
    slack = await new FakeSlack().start();
    slack.user('U1001', 'Ana', 'es-ES');
    tg = await new FakeTelegram().start();
    tg.user(TG_USER, 'Bob', 'es');
    tg.startedBot(TG_USER);
    core = new Core({ db, catalog, clock: () => new Date(Date.now() - 86_400_000) });
    ana = await household('slack', 'T0001:U1001', 'Ana');
    bob = await household('telegram', String(TG_USER), 'Bob');
    // Each process its own bot token, so the fake tells which one made a call.
    processes = await Promise.all([
      startExhaleProcess(envOf('xoxb-a')),
      startExhaleProcess(envOf('xoxb-b')),
    ]);
  }, 120_000);

  afterEach(async () => {
    for (const p of processes)
      if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await slack.stop();
    await tg.stop();
    await shared.close();
  });

  it('sends a reminder due once through Slack and once through Telegram while both schedulers run', async () => {
    // Due while both processes tick every second: they race for each.
    await chargedTomorrow(ana, 'Netflix');
    await chargedTomorrow(bob, 'Spotify');
    await slack.until(
      () => slackReminders('Netflix').length > 0 || undefined,
      'the Slack reminder',
    );
    await tg.waitFor(
      () => telegramReminders('Spotify').length > 0,
      30_000,
      'the Telegram reminder',
    );
    // A later reminder sent proves both kept ticking after the first ones went out.
    await chargedTomorrow(ana, 'Disney');
    await slack.until(() => slackReminders('Disney').length > 0 || undefined, 'a later reminder');
    expect(slackReminders('Netflix')).toHaveLength(1);
    expect(telegramReminders('Spotify')).toHaveLength(1);
    expect(await settledLog(3)).toEqual(['sent', 'sent', 'sent']);
    expect(processes.map((p) => p.output()).join('\n')).not.toMatch(/failed/);
  }, 90_000);

  it('loses nothing when the process sending a reminder is killed: the other sends it, once', async () => {
    const release = slack.hold('chat.postMessage');
    await chargedTomorrow(ana, 'Netflix');
    await chargedTomorrow(bob, 'Spotify');
    // One process claimed Ana's reminder and is stuck sending it to Slack: that one is killed.
    const stuck = await slack.until(() => slack.callsOf('chat.postMessage')[0], 'the send');
    const victim = stuck.auth === 'Bearer xoxb-a' ? 0 : 1;
    processes[victim]!.kill('SIGKILL');
    await processes[victim]!.exited;
    // The fake must have seen the dead connection close before the held send is let go; on a
    // busy machine that close can come after the process's exit.
    await slack.until(() => slack.goneWhileHeld.length > 0 || undefined, 'the dead caller gone');
    release();
    await slack.until(() => slack.abandoned.length > 0 || undefined, 'the dead send dropped');
    expect(slackReminders('Netflix')).toEqual([]);
    // The dead process's claim lapses after LEASE_MS; the claim is aged to that moment.
    await db
      .knex('reminder_log')
      .where({ status: 'claimed' })
      .update({ claimed_at: new Date(Date.now() - LEASE_MS - 1_000).toISOString() });
    await slack.until(() => slackReminders('Netflix').length > 0 || undefined, 'the reminder');
    await tg.waitFor(() => telegramReminders('Spotify').length > 0, 30_000, 'the Telegram one');
    const survivor = victim === 0 ? 'Bearer xoxb-b' : 'Bearer xoxb-a';
    expect(slack.callsOf('chat.postMessage').at(-1)?.auth).toBe(survivor);
    expect(slackReminders('Netflix')).toHaveLength(1);
    expect(telegramReminders('Spotify')).toHaveLength(1);
    expect(await settledLog(2)).toEqual(['sent', 'sent']);
  }, 90_000);
});
