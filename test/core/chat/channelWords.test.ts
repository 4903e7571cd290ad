import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type ChannelWords, type Conversation } from '../../../core/chat/index.ts';
import { createTestHousehold, TEST_DIALECT, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

const text = RecordingChannel.text;

/** A channel with a platform's own words, as Slack's: "channel" for a group, `/exhale ` before a command. */
class WordyChannel extends RecordingChannel {
  readonly words: ChannelWords = { group: 'channel', commandPrefix: '/exhale ' };
}

describe(`the channel's own words in the engine's texts (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core, assistant: null, log: () => undefined });
  });
  afterEach(async () => h.close());

  const stranger = (language: string): Conversation => ({
    who: { channel: 'telegram', externalId: '999', displayName: 'Zoe', languageCode: language },
    where: { kind: 'private', chatId: '999' },
  });

  async function say(conv: Conversation, line: string, channel: RecordingChannel): Promise<string> {
    await engine.handle(conv, { kind: 'text', text: line }, channel);
    return text(channel.last());
  }

  it('names an unknown command as it is typed on the channel', async () => {
    const conv: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
    expect(await say(conv, '/ping', new RecordingChannel())).toContain("I don't know /ping.");
    expect(await say(conv, '/ping', new WordyChannel())).toContain("I don't know /exhale ping.");
  });

  it("calls a group chat by the channel's word, in English and Spanish", async () => {
    const luis = await h.addMember('Luis', 'es');
    const inGroup = (actor = h.owner): Conversation => ({
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor },
      where: { kind: 'group', chatId: 'g', title: 'Home' },
    });
    expect(await say(inGroup(), '/list', new RecordingChannel())).toBe(
      "This group isn't linked to a household yet. Send /link to link it.",
    );
    expect(await say(inGroup(), '/list', new WordyChannel())).toBe(
      "This channel isn't linked to a household yet. Send /link to link it.",
    );
    expect(await say(inGroup(luis), '/list', new WordyChannel())).toBe(
      'Este canal todavía no está vinculado a un hogar. Envía /link para vincularlo.',
    );
    expect(await say(inGroup(), '/link', new WordyChannel())).toContain('Link this channel to');
  });

  it('writes the command menu with the default word when no channel is named (the Telegram menu)', () => {
    const link = (words?: ChannelWords) =>
      engine
        .commandMenu('en', 'group', undefined, words ? { words } : undefined)
        .find((c) => c.command === 'link')?.description;
    expect(link()).toBe('Link this group to your household');
    expect(link({ group: 'channel' })).toBe('Link this channel to your household');
    expect(
      engine
        .commandMenu('es', 'group')
        .every((c) => !c.description.includes('{') && c.description.length > 0),
    ).toBe(true);
  });

  it('gives a newcomer in a private chat what Exhale is, how to start here, and only the commands they can use', async () => {
    const help = await say(stranger('en'), '/help', new RecordingChannel('telegram'));
    const lines = help.split('\n');
    expect(lines[0]).toMatch(/^Exhale keeps your household's subscriptions/);
    expect(help).toContain('send /start here');
    expect(lines.filter((l) => /^\/\w+ — /.test(l)).map((l) => l.split(' ')[0])).toEqual([
      '/start',
      '/help',
    ]);
    const slack = await say(stranger('es'), '/help', new WordyChannel('slack'));
    expect(slack).toContain('Para empezar, envía /exhale start aquí');
    expect(slack).toContain('Envía /exhale start <código>.');
    expect(slack).toContain('/exhale help — ');
  });

  it('keeps telling a newcomer in a group to start privately first', async () => {
    const conv: Conversation = { ...stranger('en'), where: { kind: 'group', chatId: 'g' } };
    expect(await say(conv, '/help', new RecordingChannel('telegram'))).toContain(
      'in a private chat with me',
    );
  });
});
