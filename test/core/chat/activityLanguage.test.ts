import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation } from '../../../core/chat/index.ts';
import type { Actor } from '../../../core/kernel/actor.ts';
import type { ChangeEvent } from '../../../core/kernel/events.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

const text = RecordingChannel.text;

describe('chat activity in the member language', () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  let channel: RecordingChannel;
  let luis: Actor;
  let conv: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core });
    channel = new RecordingChannel();
    luis = await h.addMember('Luis', 'es');
    conv = {
      who: { channel: 'terminal', externalId: null, displayName: 'Luis', actor: luis },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  const say = (message: string, who: Conversation = conv) =>
    engine.handle(who, { kind: 'text', text: message }, channel);

  it('lists changes in Spanish for a Spanish member and in English for an English one', async () => {
    await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' });
    await say('/activity');
    expect(text(channel.last())).toContain('1. Se añadió Netflix');
    expect(text(channel.last())).not.toContain('Added');
    const ana: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
    await say('/activity', ana);
    expect(text(channel.last())).toContain('1. Added Netflix');
  });

  it('says what /undo undid in Spanish', async () => {
    await h.core.invoke('create_subscription', luis, { name: 'Gym', amount: '30' });
    await say('/undo');
    expect(channel.last().card).toEqual({ title: '↩️ Deshecho', lines: ['Se añadió Gym'] });
  });

  it("tells a Spanish member an agent's change in Spanish", async () => {
    const events: ChangeEvent[] = [];
    h.core.bus.subscribe((e) => void events.push(e));
    await h.core.invoke(
      'create_subscription',
      { ...luis, kind: 'agent', scope: 'write', channel: 'mcp', agent: { name: 'Cursor' } },
      { name: 'Notion', amount: '8' },
    );
    const notice = await engine.agentNotice(events[0]!);
    expect(notice?.reply.card).toEqual({
      title: '🤖 Cursor ha cambiado algo por ti',
      lines: ['Se añadió Notion'],
    });
  });
});
