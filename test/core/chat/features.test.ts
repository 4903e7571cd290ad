import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  type ChatFeature,
  ChatEngine,
  type Conversation,
  defineFeature,
  FEATURES,
} from '../../../core/chat/index.ts';
import { buildFeatureTables } from '../../../core/chat/featureTables.ts';
import { memberActor } from '../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

const text = RecordingChannel.text;

/** Every registered feature, as the engine reads the list. */
const registered: readonly ChatFeature[] = FEATURES;

/** A feature as a later one would be written: a command, and a button that runs another command. */
const pingFeature = defineFeature({
  name: 'ping',
  commands: [
    {
      command: 'ping',
      op: 'get_totals',
      place: 'any',
      newcomer: false,
      run: async (turn) => {
        await turn.say('pong');
      },
    },
  ],
});

describe('chat features', () => {
  let h: TestHousehold;
  let channel: RecordingChannel;
  beforeEach(async () => {
    h = await createTestHousehold();
    channel = new RecordingChannel();
  });
  afterEach(async () => h.close());

  const as = async (language: 'en' | 'es'): Promise<Conversation> => {
    await h.db.knex('members').where({ id: h.ownerId }).update({ language });
    return {
      who: {
        channel: 'terminal',
        externalId: null,
        displayName: 'Ana',
        actor: memberActor(
          { id: h.ownerId, household_id: h.householdId, role: 'owner', language },
          'terminal',
        ),
      },
      where: { kind: 'private', chatId: 'c' },
    };
  };

  it('lists every registered feature’s commands in /help and the command menu, in both languages', async () => {
    const engine = new ChatEngine({ core: h.core });
    const declared = registered
      .flatMap((f) => f.commands ?? [])
      .filter((c) => c.place !== 'group')
      .map((c) => c.command);
    for (const language of ['en', 'es'] as const) {
      const menu = engine.commandMenu(language, 'private');
      expect(menu.map((c) => c.command)).toEqual(declared);
      await engine.handle(await as(language), { kind: 'text', text: '/help' }, channel);
      const help = text(channel.last());
      for (const item of menu) expect(help).toContain(`/${item.command} — ${item.description}`);
    }
    expect(engine.commandMenu('es', 'private').find((c) => c.command === 'add')?.description).toBe(
      'Añadir una suscripción en una línea',
    );
  });

  it('answers, lists and describes the command of a feature added to the list, in both languages', async () => {
    const engine = new ChatEngine({ core: h.core, features: [...FEATURES, pingFeature] });
    for (const language of ['en', 'es'] as const) {
      // No text of its own yet: the description is its op's title.
      expect(engine.commandMenu(language, 'private').at(-1)).toEqual({
        command: 'ping',
        description: 'Totals',
      });
      const conv = await as(language);
      await engine.handle(conv, { kind: 'text', text: '/help' }, channel);
      expect(text(channel.last())).toContain('/ping — Totals');
      await engine.handle(conv, { kind: 'text', text: '/ping' }, channel);
      expect(text(channel.last())).toBe('pong');
    }
    // Without the feature the command does not exist.
    await new ChatEngine({ core: h.core }).handle(
      await as('en'),
      { kind: 'text', text: '/ping' },
      channel,
    );
    expect(text(channel.last())).toContain("I don't know /ping");
  });

  it('refuses a command, action or answer claimed by two features', () => {
    expect(() => buildFeatureTables([...FEATURES, pingFeature, pingFeature])).toThrow(
      '/ping is declared twice',
    );
    const twice = defineFeature({
      name: 'again',
      actions: { cancel: async () => undefined },
    });
    expect(() => buildFeatureTables([...FEATURES, twice])).toThrow(
      'action cancel is handled twice',
    );
    const answers = defineFeature({ name: 'again', answers: { add_line: async () => undefined } });
    expect(() => buildFeatureTables([...FEATURES, answers])).toThrow(
      'answer add_line is handled twice',
    );
  });
});
