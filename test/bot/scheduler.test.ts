import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type ChannelWork, startChannelWork } from '../../bot/channels.ts';
import { ChannelRegistry } from '../../core/channels/index.ts';
import { type Actor, memberActor, newcomerActor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { type FakeChannel, fakeChannel } from '../core/channels/fakeChannel.ts';
import { openSharedDatabases } from './harness.ts';

/** Two processes on one database, each with only a Slack-like test channel: no Telegram anywhere. */
describe('reminders through the channel registry, without Telegram', () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabases>>;
  const clock = { now: new Date('2026-03-27T08:00:00Z') }; // 09:00 in Madrid
  let cores: Array<Core<typeof catalog>>;
  let channels: FakeChannel[];
  let works: ChannelWork[];
  let ana: Actor;
  let luisId: string;
  let martaId: string;
  const logged: string[] = [];

  beforeEach(async () => {
    clock.now = new Date('2026-03-27T08:00:00Z');
    shared = await openSharedDatabases(2);
    cores = shared.dbs.map((db) => new Core({ db, catalog, clock: () => new Date(clock.now) }));
    const core = cores[0]!;
    // Ana: a Slack account; Luis: Telegram only (no process here runs Telegram); Marta: no account.
    const created = await core.invoke(
      'create_household',
      newcomerActor('slack', 'en', { slack: 'U0ANA' }),
      { name: 'Home', currency: 'EUR', time_zone: 'Europe/Madrid', owner_name: 'Ana' },
    );
    const { household, member } = created.output;
    ana = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'slack',
    );
    const join = async (actor: Actor, name: string): Promise<string> => {
      const invite = await core.invoke('create_invite', ana, {});
      const joined = await core.invoke('join_household', actor, { code: invite.output.code, name });
      return joined.output.member.id;
    };
    luisId = await join(newcomerActor('telegram', 'en', { telegram: '2002' }), 'Luis');
    martaId = await join(newcomerActor('cli', 'en'), 'Marta');
    for (const [memberId, name] of [
      [member.id, 'Netflix'],
      [luisId, 'Gym'],
      [martaId, 'Spotify'],
    ] as const) {
      const actor = memberActor(
        { id: memberId, household_id: household.id, role: 'member', language: 'en' },
        'cli',
      );
      await core.invoke('create_subscription', actor, {
        name,
        amount: '10',
        first_charge_date: '2026-03-30',
      });
    }
    channels = [];
    works = [];
    for (const c of cores) {
      const channel = fakeChannel('slack', { platform: 'slack' });
      const registry = new ChannelRegistry(c.db).register(channel);
      await registry.start();
      channels.push(channel);
      works.push(
        startChannelWork(c, registry, (line) => logged.push(line), {
          intervalMs: 3_600_000,
          clock: () => new Date(clock.now),
        }),
      );
    }
  });
  afterEach(async () => {
    for (const work of works) work.stop();
    await shared.close();
    logged.length = 0;
  });

  it('delivers each reminder once, through the channel the member has, whichever process ticks', async () => {
    const sent = await Promise.all([works[0]!.scheduler.tick(), works[1]!.scheduler.tick()]);
    expect(sent[0]! + sent[1]!).toBe(1);
    const delivered = channels.flatMap((c) => c.delivered);
    expect(delivered.map((d) => [d.to.externalId, d.reply.text])).toEqual([
      ['U0ANA', '🔔 Netflix: 10.00 EUR is due in 3 days (Mon, 30 Mar 2026).'],
    ]);
    expect(await works[0]!.scheduler.tick()).toBe(0);
    expect(logged).toEqual([]);
  });

  it('leaves reminders of members no channel here reaches unclaimed, for a process that does', async () => {
    await works[0]!.scheduler.tick();
    const log = (await shared.dbs[0]!.knex('reminder_log').select('member_id', 'status')) as Array<{
      member_id: string;
      status: string;
    }>;
    expect(log.map((r) => r.member_id)).not.toContain(luisId);
    expect(log.map((r) => r.member_id)).not.toContain(martaId);
    expect(log).toHaveLength(1);
  });

  it('records a delivery that failed on every channel, and retries it after the lease', async () => {
    for (const c of channels) c.failing = true;
    expect(await works[0]!.scheduler.tick()).toBe(0);
    expect(
      await shared.dbs[0]!.knex('reminder_log').where({ member_id: ana.memberId }).first(),
    ).toMatchObject({ status: 'claimed', attempts: 1, last_error: 'slack: slack is down' });
    for (const c of channels) c.failing = false;
    clock.now = new Date('2026-03-27T08:03:00Z');
    expect(await works[1]!.scheduler.tick()).toBe(1);
    expect(channels[1]!.delivered).toHaveLength(1);
    expect(logged).toEqual([expect.stringMatching(/^scheduler: reminder .* failed$/)]);
  });
});
