import { afterEach, describe, expect, it } from 'vitest';

import {
  ChatEngine,
  type Conversation,
  type LiveText,
  type Reply,
} from '../../../core/chat/index.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { ScriptStep } from '../../fakes/llmScript.ts';
import { type World, world } from '../assistant/helpers.ts';
import { RecordingChannel } from './recordingChannel.ts';

/**
 * The engine with the real assistant and a scripted model: free text in, the answer, notice,
 * screen and one card per proposal out; the card buttons go back to the assistant.
 */
const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

/** A channel with a live view that records what it was given. */
class LiveChannel extends RecordingChannel {
  readonly deltas: string[] = [];
  finished: string | null = null;
  live(): LiveText {
    return {
      write: (delta) => void this.deltas.push(delta),
      finish: async (final) => {
        this.finished = final;
        return this.send({ text: final });
      },
      abort: async () => undefined,
    };
  }
}

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setUp(steps: (ids: World['ids']) => ScriptStep[]) {
  w = await world('openai', steps);
  const x = w;
  const engine = new ChatEngine({ core: x.h.core, assistant: x.assistant, log: () => undefined });
  const channel = new RecordingChannel();
  const ana: Conversation = {
    who: { channel: 'telegram', externalId: null, displayName: 'Ana', actor: x.member },
    where: { kind: 'private', chatId: 'c' },
  };
  const say = (message: string, conv = ana, ch = channel) =>
    engine.handle(conv, { kind: 'text', text: message }, ch);
  const press = (reply: Reply, label: string, conv = ana, eng = engine) =>
    eng.handle(
      conv,
      {
        kind: 'press',
        payload: payload(reply, label),
        message: { chatId: 'c', messageId: String(channel.messages.indexOf(reply)) },
      },
      channel,
    );
  const amount = async (id: string): Promise<number> =>
    Number(
      (
        (await x.h.db.knex('subscriptions').where({ id }).first('amount_minor')) as {
          amount_minor: number;
        }
      ).amount_minor,
    );
  return { w: x, engine, channel, ana, say, press, amount };
}

const netflixPrice = (ids: World['ids']): ScriptStep[] => [
  { calls: [{ name: 'update_subscription', args: { id: ids.netflix, amount: '17.99' } }] },
  { text: 'Confirm below.' },
];

describe('the chat engine with the assistant', () => {
  it('streams into a live view, then sends each proposal as a card with Confirm and Discard', async () => {
    const t = await setUp(netflixPrice);
    const live = new LiveChannel();
    await t.say('Netflix went up to 17.99', t.ana, live);
    expect(live.deltas.join('')).toBe('Confirm below.');
    expect(live.finished).toBe('Confirm below.');
    expect(live.typings).toBeGreaterThanOrEqual(1);
    const card = live.last();
    expect(card.card?.title).toBe('📝 Change Netflix?');
    expect(card.buttons?.flat().map((b) => b.label)).toEqual(['✅ Confirm', '✖️ Discard']);
  });

  it('lets another process confirm a card, and refuses the card to another member', async () => {
    const t = await setUp(netflixPrice);
    await t.say('Netflix went up to 17.99');
    const card = t.channel.last();
    const index = t.channel.messages.indexOf(card);
    const luis = await t.w.h.addMember('Luis');
    const luisConv: Conversation = {
      who: { channel: 'telegram', externalId: null, displayName: 'Luis', actor: luis },
      where: { kind: 'private', chatId: 'c' },
    };
    await t.press(card, 'Confirm', luisConv);
    expect(t.channel.notices).toEqual(['These buttons belong to someone else.']);
    expect(await t.amount(t.w.ids.netflix)).toBe(1599);

    const other = new ChatEngine({
      core: new Core({ db: t.w.h.db, catalog, clock: () => new Date(t.w.h.clock.now) }),
      assistant: t.w.otherProcess(),
    });
    await t.press(card, 'Confirm', t.ana, other);
    expect(await t.amount(t.w.ids.netflix)).toBe(1799);
    expect(text(t.channel.messages[index]!)).toContain('✅ Done: Change Netflix');
  });

  it('says a card has expired after 30 minutes, takes its buttons off and changes nothing', async () => {
    const t = await setUp(netflixPrice);
    await t.say('Netflix went up to 17.99');
    const card = t.channel.last();
    const index = t.channel.messages.indexOf(card);
    t.w.h.clock.now = new Date(t.w.h.clock.now.getTime() + 31 * 60_000);
    await t.press(card, 'Confirm');
    expect(text(t.channel.last())).toBe(
      '⚠️ That proposal has expired. Ask the assistant again to prepare it anew.',
    );
    expect(t.channel.messages[index]?.buttons).toBeUndefined();
    expect(await t.amount(t.w.ids.netflix)).toBe(1599);
  });

  it("renders the assistant's screen and its notice beside the model's text", async () => {
    const t = await setUp((ids) => [
      {
        calls: [
          { name: 'show_screen', args: { kind: 'subscriptions', subscription_ids: [ids.gym] } },
        ],
      },
      { reply: { status: 500, body: '{"error":{"message":"boom","type":"server_error"}}' } },
      { reply: { status: 500, body: '{"error":{"message":"boom","type":"server_error"}}' } },
    ]);
    await t.say('show me the gym');
    const sent = t.channel.messages.map(text);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^Subscriptions \(1\)\nGym/);
    expect(sent[1]).toBe("ℹ️ The assistant's model failed to answer. Please try again later.");
  });

  it('tells the member a message is too long in one sentence, without calling the model', async () => {
    const t = await setUp(() => []);
    await t.say('x'.repeat(4_001));
    expect(text(t.channel.last())).toBe(
      '⚠️ That message is too long for the assistant (at most 4000 bytes). Please send a shorter one.',
    );
    expect(t.w.server.requests).toEqual([]);
  });
});
