import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation } from '../../../core/chat/index.ts';
import type { Channel as ChannelName } from '../../../core/kernel/actor.ts';
import { createTestHousehold, TEST_DIALECT, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

/**
 * The command list a channel shows (/help, and free text without the assistant) holds only the
 * commands that work on that channel: the web app's Ask leaves out /start, /web and /assistant,
 * which Telegram and the terminal chat keep. One rule, declared by the features (`notOn`).
 */
describe(`the command list per channel (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  async function listed(channelName: ChannelName, text: string): Promise<string[]> {
    const channel = new RecordingChannel(channelName);
    const conv: Conversation = {
      who: { channel: channelName, externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: `${channelName}:c` },
    };
    await new ChatEngine({ core: h.core }).handle(conv, { kind: 'text', text }, channel);
    const said = RecordingChannel.text(channel.last());
    return [...said.matchAll(/^\/(\w+) — /gm)].map((m) => m[1] ?? '');
  }

  it('leaves /start, /web and /assistant out of the web app’s list, in /help and in free text', async () => {
    for (const text of ['/help', 'what do I pay for streaming?']) {
      const web = await listed('web', text);
      expect(web).toEqual(expect.arrayContaining(['list', 'totals', 'upcoming', 'add', 'help']));
      expect(web).not.toContain('start');
      expect(web).not.toContain('web');
      expect(web).not.toContain('assistant');
    }
  });

  it('keeps them on Telegram and in the terminal chat', async () => {
    for (const channel of ['telegram', 'terminal'] as const) {
      const shown = await listed(channel, '/help');
      expect(shown).toEqual(expect.arrayContaining(['start', 'web', 'assistant', 'list']));
    }
  });

  it('gives the same list through the engine’s menu for a channel', () => {
    const engine = new ChatEngine({ core: h.core });
    const web = engine.commandMenu('es', 'private', 'web').map((c) => c.command);
    const all = engine.commandMenu('es', 'private').map((c) => c.command);
    expect(all.filter((c) => !web.includes(c)).sort()).toEqual(['assistant', 'start', 'web']);
  });
});
