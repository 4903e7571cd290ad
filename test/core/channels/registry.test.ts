import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChannelRegistry, DeliveryError } from '../../../core/channels/index.ts';
import { newcomerActor } from '../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type FakeChannel, fakeChannel } from './fakeChannel.ts';

const hello = { text: 'Hello' };

describe('ChannelRegistry', () => {
  let h: TestHousehold;
  let telegram: FakeChannel;
  let slack: FakeChannel;
  let registry: ChannelRegistry;
  let luisId: string;
  let martaId: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    // Luis joined from Telegram and later linked Slack; Marta has no chat account at all.
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke(
      'join_household',
      newcomerActor('telegram', 'en', { telegram: '2002', slack: 'U0LUIS' }),
      { code: invite.output.code, name: 'Luis' },
    );
    luisId = joined.output.member.id;
    martaId = (await h.addMember('Marta')).memberId ?? '';
    telegram = fakeChannel('telegram', { platform: 'telegram' });
    slack = fakeChannel('slack', { platform: 'slack' });
    registry = new ChannelRegistry(h.db).register(slack).register(telegram);
    await registry.start();
  });
  afterEach(async () => h.close());

  it('delivers once, through the first of the member’s channels, in the order they were added', async () => {
    expect(await registry.deliver(luisId, hello)).toBe('telegram');
    expect(telegram.delivered).toEqual([
      { to: { memberId: luisId, externalId: '2002' }, reply: hello },
    ]);
    expect(slack.delivered).toEqual([]);
  });

  it('follows the order the member chose with update_member', async () => {
    const luis = { ...h.owner, memberId: luisId, role: 'member' as const };
    await h.core.invoke('update_member', luis, { id: luisId, channels: ['slack'] });
    expect((await registry.routeOf(luisId)).map((r) => r.channel.name)).toEqual([
      'slack',
      'telegram',
    ]);
    expect(await registry.deliver(luisId, hello)).toBe('slack');
    expect(slack.delivered.map((d) => d.to.externalId)).toEqual(['U0LUIS']);
    expect(telegram.delivered).toEqual([]);
  });

  it('falls back to the next channel when one fails, and says why when all do', async () => {
    telegram.failing = true;
    expect(await registry.deliver(luisId, hello)).toBe('slack');
    expect(slack.delivered).toHaveLength(1);
    slack.failing = true;
    const failed = registry.deliver(luisId, hello);
    await expect(failed).rejects.toBeInstanceOf(DeliveryError);
    await expect(failed).rejects.toThrow('telegram: telegram is down; slack: slack is down');
    expect(slack.delivered).toHaveLength(1);
  });

  it('reaches nobody without a channel: a member with no account, or a channel that is off', async () => {
    expect(await registry.reaches(martaId)).toBe(false);
    expect(await registry.deliver(martaId, hello)).toBeNull();
    const notStarted = new ChannelRegistry(h.db).register(
      fakeChannel('slack', { platform: 'slack' }),
    );
    expect(await notStarted.reaches(luisId)).toBe(false); // registered, never started
    await registry.stop();
    expect(await registry.deliver(luisId, hello)).toBeNull();
    expect([telegram.stopped, slack.stopped]).toEqual([1, 1]);
  });

  it('puts a local channel (the terminal) after the member’s accounts, for the members it reaches', async () => {
    const terminal = fakeChannel('terminal', { local: (memberId) => memberId === h.ownerId });
    registry.register(terminal);
    expect(registry.isOn('terminal')).toBe(false);
    await registry.start('terminal');
    expect(terminal.started).toBe(1);
    expect(telegram.started).toBe(1); // already on: not started twice
    expect(await registry.deliver(h.ownerId, hello)).toBe('terminal');
    expect(terminal.delivered).toEqual([
      { to: { memberId: h.ownerId, externalId: null }, reply: hello },
    ]);
    expect((await registry.routeOf(luisId)).map((r) => r.channel.name)).toEqual([
      'telegram',
      'slack',
    ]);
  });

  it('refuses a second channel of the same name', () => {
    expect(() => registry.register(fakeChannel('telegram', { platform: 'telegram' }))).toThrow(
      'channel telegram is registered twice',
    );
  });
});
